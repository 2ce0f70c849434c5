//! Prints the results table for all four strategies at the lab's default inputs, with the
//! completion-order inversions, then the ordering remedies beside SKIP LOCKED: throughput and
//! per-key inversions. Run: `cargo run -p queue-sim --example defaults [WORKERS] [JOBS] [KEYS]`.

use queue_sim::{format_table, simulate, Params, Strategy};

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let base = Params {
        workers: args.first().copied().unwrap_or(Params::default().workers),
        jobs: args.get(1).copied().unwrap_or(Params::default().jobs),
        keys: args.get(2).copied().unwrap_or(Params::default().keys),
        ..Params::default()
    };
    let mut rows = Vec::new();
    let mut ordering = Vec::new();
    let remedies = Strategy::ORDERING
        .into_iter()
        .filter(|s| !Strategy::ALL.contains(s));
    for strategy in Strategy::ALL.into_iter().chain(remedies) {
        let params = Params {
            strategy,
            ..base.clone()
        };
        match simulate(&params) {
            Ok(out) => {
                if Strategy::ALL.contains(&strategy) {
                    println!(
                        "{strategy:<18} inversions {:>5} of {} completions, lock waits {}",
                        out.inversions, out.completions, out.lock_waits
                    );
                    rows.push(out.summary());
                }
                if Strategy::ORDERING.contains(&strategy) {
                    ordering.push(out);
                }
            }
            Err(e) => {
                eprintln!("defaults: {e}");
                std::process::exit(2);
            }
        }
    }
    print!("{}", format_table(&rows));
    println!("\nordering over {} keys:", base.keys);
    for out in ordering {
        println!(
            "{:<18} {:>6.1} jobs/s  per-key inversions {:>4}  global inversions {:>4}  elapsed {:.1} ms",
            out.params.strategy.as_str(),
            out.jobs_per_s,
            out.key_inversions,
            out.inversions,
            out.elapsed_us as f64 / 1000.0
        );
    }
}
