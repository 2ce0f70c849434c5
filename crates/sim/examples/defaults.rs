//! Prints the results table for all four strategies at the lab's default inputs, with the
//! completion-order inversions. Run: `cargo run -p queue-sim --example defaults [WORKERS] [JOBS]`.

use queue_sim::{format_table, simulate, Params, Strategy};

fn main() {
    let args: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let base = Params::default();
    let mut rows = Vec::new();
    for strategy in Strategy::ALL {
        let params = Params {
            strategy,
            workers: args.first().copied().unwrap_or(base.workers),
            jobs: args.get(1).copied().unwrap_or(base.jobs),
            ..base.clone()
        };
        match simulate(&params) {
            Ok(out) => {
                println!(
                    "{strategy:<18} inversions {:>5} of {} completions, lock waits {}",
                    out.inversions, out.completions, out.lock_waits
                );
                rows.push(out.summary());
            }
            Err(e) => {
                eprintln!("defaults: {e}");
                std::process::exit(2);
            }
        }
    }
    print!("{}", format_table(&rows));
}
