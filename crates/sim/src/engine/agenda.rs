//! The engine's event queue.

/// The pending events: at most one per worker, so a tournament tree over the workers finds
/// the earliest in log₂(workers) steps; at equal times the lower worker wins.
///
/// Each key packs the event time above the worker's index (`time << WORKER_BITS | worker`),
/// so one integer comparison orders by time, then worker, and an update is a branch-free
/// `min` with the sibling on each level up. Times stay far below 2⁵⁸ µs: a run has at most
/// `jobs × workers` executions (`MAX_EXECUTIONS` with a limit), each a handful of events
/// none of which moves time by more than the 30 s lease, which is under 2⁵² µs.
pub(super) struct Agenda {
    /// Node keys: the packed event key, or `NONE`; node 1 is the root, leaves from
    /// `1 << levels`.
    /// Fixed size (64 workers at most), so masked indexing needs no bounds checks.
    keys: [u64; 2 * AGENDA_LEAVES],
    /// log₂ of the leaves (at least 2 of them): the steps from a leaf up to the root.
    levels: u32,
    /// Each worker's pending event code (see `events::code`), or `TAKEN` once the event
    /// loop has taken it and until the worker's next [`Self::set`].
    codes: [u8; AGENDA_LEAVES],
}

/// The code of an event the loop has taken from the agenda.
const TAKEN: u8 = u8::MAX;

/// Bits of an agenda key that hold the worker (up to 64 workers).
const WORKER_BITS: u32 = 6;
const AGENDA_LEAVES: usize = 1 << WORKER_BITS;
/// The key of a worker with nothing pending.
const NONE: u64 = u64::MAX;

impl Agenda {
    pub(super) fn new(workers: usize) -> Self {
        assert!(workers <= AGENDA_LEAVES, "at most {AGENDA_LEAVES} workers");
        let leaves = workers.next_power_of_two().max(2);
        Agenda {
            keys: [NONE; 2 * AGENDA_LEAVES],
            levels: leaves.trailing_zeros(),
            codes: [TAKEN; AGENDA_LEAVES],
        }
    }

    /// Not inlined: the event loop calls it from many places, and inlined there its six
    /// unrolled walks made the loop one 249 KB WebAssembly function that V8 took 287 ms to
    /// optimize (104 KB and 85 ms as it is; Node 20). Natively, with the
    /// chunked loop, 2–7 % slower (lease and tx, farm-bench).
    #[inline(never)]
    pub(super) fn update(&mut self, w: usize, key: u64) {
        // One fully unrolled walk per tree height (the height is fixed for a run, so the
        // dispatch is always predicted).
        match self.levels {
            1 => self.walk::<1>(w, key),
            2 => self.walk::<2>(w, key),
            3 => self.walk::<3>(w, key),
            4 => self.walk::<4>(w, key),
            5 => self.walk::<5>(w, key),
            _ => self.walk::<6>(w, key),
        }
    }

    /// Sets leaf `w` to `key` and recomputes the `LEVELS` nodes above it.
    #[inline(always)]
    pub(super) fn walk<const LEVELS: u32>(&mut self, w: usize, key: u64) {
        const MASK: usize = 2 * AGENDA_LEAVES - 1;
        let mut i = (1 << LEVELS) + w;
        let mut best = key;
        self.keys[i & MASK] = key;
        for _ in 0..LEVELS {
            best = best.min(self.keys[(i ^ 1) & MASK]);
            i /= 2;
            self.keys[i & MASK] = best;
        }
    }

    /// Worker `w`'s next event is `code` at `t` (replacing any pending one).
    #[inline(always)]
    pub(super) fn set(&mut self, w: usize, t: u64, code: u8) {
        // Below 2⁵⁷ (see above: run times stay under 2⁵² µs), so no packed key reaches `NONE`.
        debug_assert!(t < 1 << 57, "event time {t} µs out of range");
        debug_assert_ne!(code, TAKEN);
        self.codes[w % AGENDA_LEAVES] = code;
        self.update(w, (t << WORKER_BITS) | w as u64);
    }

    /// The code of worker `w`'s pending event, which the caller is about to handle. The event
    /// stays at the top of the agenda until the worker's next `set` or `clear`.
    #[inline(always)]
    pub(super) fn take(&mut self, w: usize) -> u8 {
        std::mem::replace(&mut self.codes[w % AGENDA_LEAVES], TAKEN)
    }

    /// Whether worker `w`'s event was taken and no new one set since.
    #[inline(always)]
    pub(super) fn taken(&self, w: usize) -> bool {
        self.codes[w % AGENDA_LEAVES] == TAKEN
    }

    /// The earliest pending event as `(time, worker)`; it stays pending until the worker's
    /// next `set` or `clear`.
    #[inline(always)]
    pub(super) fn peek(&self) -> Option<(u64, usize)> {
        let key = self.keys[1];
        (key != NONE).then_some((
            key >> WORKER_BITS,
            (key & (AGENDA_LEAVES as u64 - 1)) as usize,
        ))
    }

    #[inline(always)]
    pub(super) fn clear(&mut self, w: usize) {
        self.update(w, NONE);
    }
}
