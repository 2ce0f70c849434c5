//! L2 as the challenges' host (see [`crate::labs::challenge::ChallengeHost`]): a step is one
//! set of inputs, run (a tour step's action); the state a check reads is the run on screen.

use crate::ctx::Ctx;
use crate::keys;
use crate::labs::challenge::{
    run_state_check, ChallengeHost, Challenges, Check, CheckTime, HostTexts,
};
use crate::labs::workers::challenges::CHALLENGES;
use crate::labs::workers::model::{Inputs, Ran};
use leptos::prelude::*;
use queue_lab_core::i18n::Msg;

/// L2's challenges on its page: `play` sets the inputs and runs them.
pub fn challenges(
    ctx: Ctx,
    result: RwSignal<Option<Ran>>,
    running: RwSignal<bool>,
    play: Callback<Inputs>,
) -> Challenges<Host> {
    Challenges::new(
        ctx,
        Host {
            result,
            running,
            play,
        },
        &CHALLENGES,
    )
}

/// L2 as the challenges' host: a step is one set of inputs, run (a tour step's action); the
/// state a check reads is the run on screen.
#[derive(Clone, Copy)]
pub struct Host {
    result: RwSignal<Option<Ran>>,
    running: RwSignal<bool>,
    /// Sets the inputs and runs them.
    play: Callback<Inputs>,
}

impl ChallengeHost for Host {
    type Action = Inputs;
    type State = Ran;
    const TEXTS: HostTexts = HostTexts {
        hint: keys::CHALLENGE_HINT_RUN,
        open: keys::CHALLENGE_OPEN_RUN,
        solved: keys::CHALLENGE_SOLVED_STATE,
    };

    fn replay(self, actions: Vec<Inputs>, _fresh: bool, _what: Option<Msg>) {
        // Each step is a whole set of inputs: after several, the last is what is on screen.
        if let Some(inputs) = actions.into_iter().last() {
            self.play.run(inputs);
        }
    }

    fn track(self) {
        self.result.track();
    }

    fn ready(self, _ctx: Ctx) -> bool {
        !self.running.get()
    }

    fn run_check(
        self,
        _ctx: Ctx,
        check: &'static Check<Ran>,
        done: impl FnOnce(bool, CheckTime) + 'static,
    ) {
        // A run under way: its figures are not in yet, and its end checks again.
        if self.running.get_untracked() {
            return;
        }
        self.result
            .with_untracked(|r| run_state_check(check, r.as_ref(), done));
    }
}
