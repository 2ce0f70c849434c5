//! Transactions opening and closing, passed to the [`TxTracker`] in time order.

use crate::report::{TxStats, TxTracker};

/// The tracker, plus the closes that are known before their time.
///
/// A reply that only concerns its own worker is handled when the server sends it (see
/// `Sim::send_reply`), ahead of events that come before its arrival; the transaction it
/// closes must still reach the tracker after those events. Such a close waits in `later`
/// until a tracker call at or after its time, which first hands over every waiting close
/// due by then, earliest first. At the same instant the order of opens and closes does not
/// matter to the tracker (it counts open transactions over stretches of time, and a
/// stretch of zero length counts nothing), so the statistics are exactly those of the
/// closes being made at their own time.
pub(super) struct TxClock {
    tracker: TxTracker,
    /// Closes not yet given to the tracker, as `(end, start)`: a ring, earliest first, of
    /// `waiting` entries from `first`. At most one per worker: a worker's next statement
    /// opens a transaction no earlier than its last close, which hands that close over.
    later: [(u64, u64); RING],
    first: usize,
    waiting: usize,
    /// The earliest waiting `end`, `u64::MAX` when none waits.
    next_due: u64,
}

/// Ring slots: one per worker at most (`MAX_WORKERS`), a power of two for masked indexing.
const RING: usize = 64;
const _: () = assert!(RING >= crate::params::MAX_WORKERS as usize && RING.is_power_of_two());

impl TxClock {
    pub(super) fn new() -> Self {
        TxClock {
            tracker: TxTracker::new(),
            later: [(0, 0); RING],
            first: 0,
            waiting: 0,
            next_due: u64::MAX,
        }
    }

    /// A transaction opens at `t`, the current time.
    #[inline(always)]
    pub(super) fn open(&mut self, t: u64) {
        self.catch_up(t);
        self.tracker.open(t);
    }

    /// The transaction opened at `start` closes at `end`; `now` is the current time, and a
    /// close after it waits until time reaches it.
    #[inline(always)]
    pub(super) fn close(&mut self, start: u64, end: u64, now: u64) {
        if end > now {
            self.wait(start, end);
        } else {
            self.catch_up(end);
            self.tracker.close(start, end);
        }
    }

    /// The transaction opened at `start` closes at `t`, the current time, as the same worker
    /// opens another: the count of open transactions stays the same, so the tracker is not
    /// moved (time spans of zero length count nothing); only the longest span may change.
    #[inline(always)]
    pub(super) fn hand_on(&mut self, start: u64, t: u64) {
        self.tracker.note_span(start, t);
    }

    /// The statistics over `0..end_us`, after every waiting close.
    pub(super) fn finish(mut self, end_us: u64) -> TxStats {
        if self.waiting > 0 {
            let last = self.later[(self.first + self.waiting - 1) % RING].0;
            self.catch_up(last);
        }
        self.tracker.finish(end_us)
    }

    /// Keeps a close for later, in time order.
    #[inline(always)]
    fn wait(&mut self, start: u64, end: u64) {
        assert!(self.waiting < RING, "more waiting closes than workers");
        // Closes are mostly made in time order, so the new one usually goes last: an
        // insertion step from the back.
        let mut i = self.waiting;
        while i > 0 {
            let before = self.later[(self.first + i - 1) % RING];
            if before.0 <= end {
                break;
            }
            self.later[(self.first + i) % RING] = before;
            i -= 1;
        }
        self.later[(self.first + i) % RING] = (end, start);
        self.waiting += 1;
        self.next_due = self.later[self.first].0;
    }

    /// Gives the tracker every waiting close due at or before `t`.
    #[inline(always)]
    fn catch_up(&mut self, t: u64) {
        while self.next_due <= t {
            let (end, start) = self.later[self.first];
            self.tracker.close(start, end);
            self.first = (self.first + 1) % RING;
            self.waiting -= 1;
            self.next_due = if self.waiting > 0 {
                self.later[self.first].0
            } else {
                u64::MAX
            };
        }
    }
}
