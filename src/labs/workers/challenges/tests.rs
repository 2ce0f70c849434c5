//! Each challenge's check on the figures a run of its inputs shows (the page's worker runs the
//! same simulations): not solved as it starts, solved by its solution, not one step short of
//! it (its near miss), and a few other near misses named for what they miss.

use super::*;
use crate::labs::workers::model::{job, ordering_params, run};

/// What the page shows after running `inputs` (the simulations of [`job`], here).
fn ran_of(inputs: &Inputs) -> Ran {
    let params = inputs.to_params().expect("valid inputs");
    assert_eq!(
        job(&params).groups.len(),
        3,
        "the page's job: chosen, ordering, defaults"
    );
    Ran {
        outs: run(&params).expect("runs"),
        ordering: run(&ordering_params(&params[0])).expect("runs"),
        ours_at_defaults: 0,
        took_ms: 0.0,
        ordering_ms: 0.0,
    }
}

fn holds(c: &Challenge<Inputs, Ran>, inputs: &Inputs) -> bool {
    c.check
        .holds_on(&ran_of(inputs))
        .expect("L2's checks read the run")
}

fn by_id(id: &str) -> &'static Challenge<Inputs, Ran> {
    crate::labs::challenge::by_id(&CHALLENGES, id).expect("a challenge of L2")
}

#[test]
fn every_challenge_starts_unsolved_is_solved_by_its_solution_and_not_one_step_short() {
    for c in &CHALLENGES {
        assert!(c.hints.len() <= crate::labs::challenge::MAX_HINTS);
        let start = (c.start)();
        assert!(
            !holds(c, start.last().expect("a start")),
            "{} starts solved",
            c.id
        );
        let steps = (c.solution)();
        assert!(steps.len() >= 2, "{}: a near miss and the answer", c.id);
        assert!(
            holds(c, &steps[steps.len() - 1]),
            "{}: its solution does not solve it",
            c.id
        );
        assert!(
            !holds(c, &steps[steps.len() - 2]),
            "{}: solved one step short",
            c.id
        );
    }
}

#[test]
fn the_naive_challenge_wants_the_fewest_workers_not_any_that_run_a_job_twice() {
    let c = by_id("workers-naive-twice");
    let w = fewest_naive_twice();
    assert!(w >= 2, "one worker never runs a job twice");
    // One worker more runs jobs twice too, and is not the answer.
    let more = naive_with(w + 1);
    assert!(ran_of(&more).outs[0].jobs_run_more_than_once > 0);
    assert!(!holds(c, &more));
    // The answer with another seed is not the challenge (seed 42).
    let other_seed = Inputs {
        seed: "7".into(),
        ..naive_with(w)
    };
    assert!(!holds(c, &other_seed));
    // All four side by side: (a)'s column counts too.
    assert!(holds(c, &all_four(w, 8)));
}

#[test]
fn the_for_update_challenge_wants_less_than_half_and_both_side_by_side() {
    let c = by_id("workers-for-update-half");
    let w = fewest_for_update_half();
    let near = ran_of(&all_four(w - 1, 8));
    let share = for_update_share(&near.outs).expect("both ran");
    assert!(share >= HALF_PERCENT, "one worker fewer is at {share:.0}%");
    // (b) alone has nothing to compare with.
    let alone = Inputs {
        pick: Pick::One(ForUpdate),
        ..all_four(w, 8)
    };
    assert!(!holds(c, &alone));
    // (b) waits on locks there: the reason it falls behind.
    assert!(find(&ran_of(&all_four(w, 8)).outs, ForUpdate).is_some_and(|o| o.lock_waits > 0));
}

#[test]
fn the_ordering_challenge_wants_many_workers_order_kept_and_the_pace() {
    let c = by_id("workers-order-pace");
    let k = keys_for_pace();
    assert!(k > 1, "one key cannot keep the pace");
    // Fewer workers keep the pace with fewer keys, but the challenge is about many.
    assert!(!holds(c, &all_four(MANY_WORKERS / 2, k)));
    // With the keys of the answer, the remedy kept each key's order and (d) did not.
    let ran = ran_of(&all_four(MANY_WORKERS, k));
    assert!(find(&ran.ordering, SkipLockedLease).is_some_and(|d| d.key_inversions > 0));
}

#[test]
fn the_long_transaction_challenge_wants_the_second_and_the_lease_short() {
    let c = by_id("workers-long-tx");
    // (c) alone: no (d) to show the short transaction beside it.
    let alone = Inputs {
        pick: Pick::One(SkipLockedTx),
        ..fixed_jobs(LONG_TX_US / 1_000)
    };
    assert!(!holds(c, &alone));
    // A job a little under the second still holds the transaction past it (claim + work +
    // completion): the check reads the transaction, not the job.
    let ran = ran_of(&fixed_jobs(LONG_TX_US / 1_000));
    let d = find(&ran.outs, SkipLockedLease).expect("(d) ran");
    assert!(
        d.tx.longest_tx_us < LONG_TX_US / 100,
        "(d) commits its claim at once"
    );
}
