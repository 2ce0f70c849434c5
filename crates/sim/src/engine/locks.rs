//! Row locks: taking and giving them up, and FOR UPDATE's queue of waiters.

use super::*;

impl Sim<'_> {
    pub(super) fn acquire(&mut self, row: u32, w: usize) {
        self.lock[row as usize] = w as u16;
        self.note_lock(row, w, true);
    }

    #[cfg_attr(not(test), allow(unused_variables))]
    pub(super) fn note_lock(&mut self, row: u32, w: usize, acquired: bool) {
        #[cfg(test)]
        if self.tracing {
            self.trace.push(LockEvent {
                t: self.now,
                row,
                worker: w as u16,
                acquired,
            });
        }
    }

    /// Gives up a row lock; the longest waiter on that row gets it now.
    ///
    /// A waiter handed a row that is no longer ready (its holder marked it done) re-checks,
    /// drops the lock and scans on at once, so those waiters are handled here, in FIFO order,
    /// without an event each: with many FOR UPDATE workers, every commit would otherwise
    /// cost one event per waiter.
    pub(super) fn release(&mut self, row: u32) {
        let holder = self.lock[row as usize];
        self.note_lock(row, usize::from(holder), false);
        self.lock[row as usize] = UNLOCKED;
        while !self.waiters.is_empty() {
            let next = self.waiters.iter().position(|&(r, _)| r == row);
            let Some(v) = next
                .and_then(|i| self.waiters.remove(i))
                .map(|(_, v)| usize::from(v))
            else {
                return;
            };
            self.acquire(row, v);
            if self.status[row as usize] == READY {
                self.workers[v].granted_row = Some(row);
                let now = self.now;
                self.schedule(v, now, Next::Granted);
                return;
            }
            self.lock_wait_us += self.now - self.workers[v].wait_since;
            self.segment(v, SegmentKind::Claim, None);
            self.workers[v].scan_from = row + 1;
            self.scan_for_update(v);
            self.note_lock(row, v, false);
            self.lock[row as usize] = UNLOCKED;
        }
    }

    /// The first ready row at or after `from` that no transaction has locked.
    pub(super) fn first_unlocked_ready(&self, from: u32) -> Option<u32> {
        (from..self.status.len() as u32)
            .find(|&r| self.status[r as usize] == READY && self.lock[r as usize] == UNLOCKED)
    }

    /// FOR UPDATE: lock the first ready row from `scan_from`, queueing behind its holder.
    pub(super) fn scan_for_update(&mut self, w: usize) {
        let n = self.status.len() as u32;
        let mut r = self.workers[w].scan_from.max(self.head);
        while r < n && self.status[r as usize] != READY {
            r += 1;
        }
        if r >= n {
            self.send_reply(w, None);
            return;
        }
        if self.lock[r as usize] == UNLOCKED {
            self.acquire(r, w);
            self.workers[w].holding = Some(r);
            self.send_reply(w, Some(r));
            return;
        }
        self.workers[w].wait_since = self.now;
        self.waiters.push_back((r, w as u16));
        self.lock_waits += 1;
        self.segment(w, SegmentKind::LockWait, None);
    }

    /// FOR UPDATE: the lock this worker queued for is now its own; re-check the row.
    pub(super) fn granted(&mut self, w: usize) {
        let waited = self.now - self.workers[w].wait_since;
        self.lock_wait_us += waited;
        self.segment(w, SegmentKind::Claim, None);
        let Some(row) = self.workers[w].granted_row.take() else {
            return;
        };
        if self.status[row as usize] == READY {
            self.workers[w].holding = Some(row);
            self.send_reply(w, Some(row));
        } else {
            // Scan on before passing the dead row's lock along, so waiters keep their order.
            self.workers[w].scan_from = row + 1;
            self.scan_for_update(w);
            self.release(row);
        }
    }
}
