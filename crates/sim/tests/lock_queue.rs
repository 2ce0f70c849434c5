//! FOR UPDATE's lock queue, checked through the simulator's public API: PostgreSQL queues
//! the waiters on a row lock first come, first served, so under FOR UPDATE the workers take
//! turns on the head row and each runs about the same share of the jobs. (Handing the lock
//! to the newest waiter instead would let two workers pass it between them while the others
//! starve; only the pinned fingerprints noticed that before.)

use queue_sim::{simulate, Durations, Params, SegmentKind, Strategy};

#[test]
fn for_update_waiters_take_turns_so_every_worker_runs_its_share_of_the_jobs() {
    for (workers, durations) in [
        (4, Durations::Fixed { us: 20_000 }),
        (
            6,
            Durations::Uniform {
                min_us: 10_000,
                max_us: 30_000,
            },
        ),
    ] {
        let out = simulate(&Params {
            strategy: Strategy::ForUpdate,
            workers,
            jobs: 240,
            durations,
            ..Params::default()
        })
        .expect("valid params");
        assert!(!out.timeline_truncated);
        let mut ran = vec![0u32; workers as usize];
        for s in &out.timeline {
            if s.kind == SegmentKind::Work {
                ran[usize::from(s.worker)] += 1;
            }
        }
        assert_eq!(ran.iter().sum::<u32>(), 240);
        let share = 240 / workers;
        for (w, &n) in ran.iter().enumerate() {
            assert!(
                n * 10 >= share * 8 && n * 10 <= share * 12,
                "{workers} workers: worker {w} ran {n} jobs, not about {share}: {ran:?}"
            );
        }
    }
}
