//! The event loop: each worker's next event taken in time order and dispatched, in chunks
//! between which the progress hook is called.

use super::*;

impl Sim<'_> {
    pub(super) fn run(&mut self, hook: &mut dyn FnMut(Progress)) {
        // Workers come up within one round trip of each other, not in lockstep.
        for w in 0..self.workers.len() {
            let t = self.start_draws.range_inclusive(0, self.p.latency_us);
            self.schedule(w, t, Next::Start);
        }
        while self.handle_events(PROGRESS_EVERY) {
            hook(Progress {
                now_us: self.now,
                completions: self.completions,
                jobs: self.p.jobs,
            });
        }
    }

    /// Handles up to `budget` events; whether any is left.
    ///
    /// A function of its own, returned from every [`PROGRESS_EVERY`] events, for the browser:
    /// V8 first runs WebAssembly from its baseline compiler and swaps in optimized code only
    /// at the next call of a function (it has no on-stack replacement for WebAssembly), so a
    /// run that was one call would stay in baseline code to its end (1.4–2.1× slower, measured
    /// in Node 20 on this crate built for wasm32). Natively: one call per chunk.
    #[inline(never)]
    fn handle_events(&mut self, budget: u32) -> bool {
        for _ in 0..budget {
            let Some((t, w)) = self.events.peek() else {
                return false;
            };
            self.now = t;
            match self.events.take(w) {
                START => self.start(w),
                GRANTED => self.granted(w),
                GAP_END => self.issue(w, Stmt::MarkRunning),
                WORK_END => {
                    let job = self.workers[w].job;
                    self.segment(w, SegmentKind::Complete, job);
                    self.issue(w, Stmt::MarkDone);
                }
                EXEC_BEGIN => self.exec(w, Stmt::Begin),
                EXEC_NAIVE_SELECT => self.exec(w, Stmt::NaiveSelect),
                EXEC_MARK_RUNNING => self.exec(w, Stmt::MarkRunning),
                EXEC_SELECT_FOR_UPDATE => self.exec(w, Stmt::SelectForUpdate),
                EXEC_SELECT_SKIP_LOCKED => self.exec(w, Stmt::SelectSkipLocked),
                EXEC_LEASE_CLAIM => self.exec(w, Stmt::LeaseClaim),
                EXEC_MARK_DONE => self.exec(w, Stmt::MarkDone),
                EXEC_COMMIT => self.exec(w, Stmt::Commit),
                REPLY_BEGIN => self.reply(w, Stmt::Begin, t),
                REPLY_NAIVE_SELECT => self.reply(w, Stmt::NaiveSelect, t),
                REPLY_MARK_RUNNING => self.reply(w, Stmt::MarkRunning, t),
                REPLY_SELECT_FOR_UPDATE => self.reply(w, Stmt::SelectForUpdate, t),
                REPLY_SELECT_SKIP_LOCKED => self.reply(w, Stmt::SelectSkipLocked, t),
                REPLY_LEASE_CLAIM => self.reply(w, Stmt::LeaseClaim, t),
                REPLY_MARK_DONE => self.reply(w, Stmt::MarkDone, t),
                REPLY_COMMIT => self.reply(w, Stmt::Commit, t),
                other => unreachable!("no event has code {other}"),
            }
            // Most events schedule their worker's next one, which replaces this one in the
            // agenda; a stopped or blocked worker's event is removed here.
            if self.events.taken(w) {
                self.events.clear(w);
            }
        }
        self.events.peek().is_some()
    }
}
