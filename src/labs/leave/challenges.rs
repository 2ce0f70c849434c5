//! L5's challenges, in the tour's format (see [`crate::labs::challenge`]): each step fills a
//! worked case or sets one input, and each check is a rule over the inputs on screen ([`Draft`])
//! and the advisor's verdict on them, since L5 has no tables. The texts are
//! `leave.ch.<name>.*` in `assets/i18n/leave.tsv`. The answers are computed from the advisor
//! here, never typed: a solution's steps are the answer and its near miss.

use super::model::{Case, Draft};
use crate::keys;
use crate::labs::challenge::{Challenge, Check};
use queue_lab_core::advisor::{advise, Field, Recommendation, Workload};

/// One step of a challenge: what a learner does on the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Presses a worked case's button.
    Case(Case),
    /// Types `text` into `field`.
    Set(Field, String),
}

impl Step {
    /// Sets `field` to the number `n`, written as the page writes it.
    fn number(field: Field, n: f64) -> Step {
        Step::Set(field, format!("{n}"))
    }

    /// The inputs after this step.
    pub fn apply(&self, draft: &mut Draft) {
        match self {
            Step::Case(case) => *draft = Draft::from_workload(&case.workload()),
            Step::Set(field, text) => draft.set(*field, text.clone()),
        }
    }
}

/// What the advisor recommends for `w` (`None`: it refuses the inputs).
fn recommends(w: &Workload) -> Option<Recommendation> {
    advise(w).ok().map(|v| v.recommendation)
}

/// Whether `w` is `base` but for the inputs of `free`.
fn only_changed(w: &Workload, base: &Workload, free: &[Field]) -> bool {
    Field::ALL
        .into_iter()
        .filter(|f| !free.contains(f))
        .all(|f| w.number(f) == base.number(f) && w.flag(f) == base.flag(f))
}

/// Challenge 1: the side project but for its rates; the advisor no longer says stay at this
/// whole sustained rate, and says stay one job a second below it (the same peak).
fn first_rate_to_leave(d: &Draft) -> bool {
    let Ok(w) = d.parse() else {
        return false;
    };
    let side = Case::SideProject.workload();
    let s = w.sustained_jobs_per_s;
    let below = Workload {
        sustained_jobs_per_s: s - 1.0,
        ..w.clone()
    };
    only_changed(&w, &side, &[Field::SustainedJobsPerS, Field::PeakJobsPerS])
        && s.fract() == 0.0
        && recommends(&w).is_some_and(|r| r != Recommendation::StayOnOnePostgres)
        && recommends(&below) == Some(Recommendation::StayOnOnePostgres)
}

/// The smallest whole number in `1..=most` at which the side project, changed by `with`,
/// gets a recommendation `wanted` accepts; 0 for none.
fn smallest_whole(
    most: u32,
    with: impl Fn(f64, &Workload) -> Workload,
    wanted: impl Fn(Recommendation) -> bool,
) -> f64 {
    let side = Case::SideProject.workload();
    (1..=most)
        .map(f64::from)
        .find(|x| recommends(&with(*x, &side)).is_some_and(&wanted))
        .unwrap_or(0.0)
}

/// The answer to challenge 1: the smallest whole sustained rate (the peak raised to it) at
/// which the side project's advice is no longer to stay.
pub fn first_leaving_rate() -> f64 {
    smallest_whole(
        1_000_000,
        |s, side| Workload {
            sustained_jobs_per_s: s,
            peak_jobs_per_s: side.peak_jobs_per_s.max(s),
            ..side.clone()
        },
        |r| r != Recommendation::StayOnOnePostgres,
    )
}

/// Challenge 2: the side project but for its consumers; the advisor recommends a log, and
/// with one consumer fewer it does not.
fn fewest_consumers_for_a_log(d: &Draft) -> bool {
    let Ok(w) = d.parse() else {
        return false;
    };
    let fewer = Workload {
        fan_out_consumers: w.fan_out_consumers - 1.0,
        ..w.clone()
    };
    only_changed(&w, &Case::SideProject.workload(), &[Field::FanOutConsumers])
        && recommends(&w) == Some(Recommendation::Log)
        && recommends(&fewer).is_some_and(|r| r != Recommendation::Log)
}

/// The answer to challenge 2: the fewest consumers at which the side project goes to a log.
pub fn fewest_log_consumers() -> f64 {
    smallest_whole(
        1_000,
        |n, side| Workload {
            fan_out_consumers: n,
            ..side.clone()
        },
        |r| r == Recommendation::Log,
    )
}

pub const CHALLENGES: [Challenge<Step, Draft>; 2] = [
    Challenge {
        id: "leave-first-rate",
        goal: keys::LEAVE_CH_RATE_GOAL,
        start: || vec![Step::Case(Case::SideProject)],
        check: Check::State {
            rule: keys::LEAVE_CH_RATE_RULE,
            holds: first_rate_to_leave,
        },
        hints: &[
            keys::LEAVE_CH_RATE_HINT_1,
            keys::LEAVE_CH_RATE_HINT_2,
            keys::LEAVE_CH_RATE_HINT_3,
        ],
        solution_text: keys::LEAVE_CH_RATE_SOLUTION,
        solution: || {
            let r = first_leaving_rate();
            vec![
                Step::number(Field::PeakJobsPerS, r),
                Step::number(Field::SustainedJobsPerS, r - 1.0),
                Step::number(Field::SustainedJobsPerS, r),
            ]
        },
        why: keys::LEAVE_CH_RATE_WHY,
    },
    Challenge {
        id: "leave-log",
        goal: keys::LEAVE_CH_LOG_GOAL,
        start: || vec![Step::Case(Case::SideProject)],
        check: Check::State {
            rule: keys::LEAVE_CH_LOG_RULE,
            holds: fewest_consumers_for_a_log,
        },
        hints: &[
            keys::LEAVE_CH_LOG_HINT_1,
            keys::LEAVE_CH_LOG_HINT_2,
            keys::LEAVE_CH_LOG_HINT_3,
        ],
        solution_text: keys::LEAVE_CH_LOG_SOLUTION,
        solution: || {
            let n = fewest_log_consumers();
            vec![
                Step::number(Field::FanOutConsumers, n - 1.0),
                Step::number(Field::FanOutConsumers, n),
            ]
        },
        why: keys::LEAVE_CH_LOG_WHY,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::labs::challenge::MAX_HINTS;

    /// The inputs after the start and `steps`.
    fn after(c: &Challenge<Step, Draft>, steps: &[Step]) -> Draft {
        let mut d = Draft::from_workload(&Workload::default());
        for s in (c.start)().iter().chain(steps) {
            s.apply(&mut d);
        }
        d
    }

    fn holds(c: &Challenge<Step, Draft>, steps: &[Step]) -> bool {
        c.check
            .holds_on(&after(c, steps))
            .expect("L5's checks read the inputs")
    }

    fn by_id(id: &str) -> &'static Challenge<Step, Draft> {
        crate::labs::challenge::by_id(&CHALLENGES, id).expect("a challenge of L5")
    }

    #[test]
    fn every_challenge_starts_unsolved_is_solved_by_its_solution_and_not_one_step_short() {
        for c in &CHALLENGES {
            assert!(c.hints.len() <= MAX_HINTS);
            assert!(!holds(c, &[]), "{} starts solved", c.id);
            let mut steps = (c.solution)();
            assert!(holds(c, &steps), "{}: its solution does not solve it", c.id);
            steps.pop();
            assert!(!holds(c, &steps), "{}: solved one step short", c.id);
        }
    }

    #[test]
    fn the_rate_challenge_wants_the_smallest_rate_with_the_rest_of_the_side_project() {
        let c = by_id("leave-first-rate");
        let r = first_leaving_rate();
        assert!(r > Workload::default().sustained_jobs_per_s, "{r}");
        let peak = Step::number(Field::PeakJobsPerS, r + 10.0);
        // A rate above the answer says leave too, but is not the smallest.
        assert!(!holds(
            c,
            &[
                peak.clone(),
                Step::number(Field::SustainedJobsPerS, r + 1.0)
            ]
        ));
        // The answer with the main database busier is another question.
        assert!(!holds(
            c,
            &[
                peak.clone(),
                Step::number(Field::SustainedJobsPerS, r),
                Step::number(Field::DbLoadPercent, 85.0),
            ]
        ));
        // A peak below the rate is refused by the advisor: nothing to check.
        assert!(!holds(c, &[Step::number(Field::SustainedJobsPerS, r)]));
        // Not a whole rate.
        assert!(!holds(
            c,
            &[peak, Step::number(Field::SustainedJobsPerS, r - 0.5)]
        ));
    }

    #[test]
    fn the_log_challenge_wants_the_fewest_consumers_and_nothing_else_changed() {
        let c = by_id("leave-log");
        let n = fewest_log_consumers();
        assert!(n >= 2.0, "one consumer is a job queue");
        // More consumers go to a log too, but are not the fewest.
        assert!(!holds(c, &[Step::number(Field::FanOutConsumers, n + 1.0)]));
        // Replay also calls for a log, but changes another input.
        assert!(!holds(c, &[Step::Set(Field::ReplayNeeded, "1".into())]));
        // The five teams' case has a log with other rates.
        assert!(!holds(c, &[Step::Case(Case::FiveTeams)]));
    }
}
