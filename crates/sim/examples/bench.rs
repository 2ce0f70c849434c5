//! Times the simulator on the benchmark size (16 workers × 100,000 jobs).
//!
//! Run: `cargo run -p queue-sim --release --example bench [STRATEGY] [REPEATS] [--json]`
//! (STRATEGY: one id, or `all`, the default: the four article strategies; REPEATS: 5). Prints the best wall time of the
//! repeats per strategy, then the results table; with `--json`, one JSON object instead:
//! every repeat's wall time in ms per strategy (what `./lab bench` reads). Not a test: it
//! only prints.

use std::time::Instant;

use queue_sim::{format_table, simulate, Durations, Params, Strategy};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    args.retain(|a| a != "--json");
    let strategies: Vec<Strategy> = match args.first().map(String::as_str) {
        None | Some("all") => Strategy::ALL.to_vec(),
        Some(id) => match Strategy::parse(id) {
            Some(s) => vec![s],
            None => {
                eprintln!("bench: unknown strategy {id:?} (naive, for-update, skip-locked-tx, skip-locked-lease, split-queues, per-key, all)");
                std::process::exit(2);
            }
        },
    };
    let repeats: u32 = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(5).max(1);
    let mut rows = Vec::new();
    let mut timings = Vec::new();
    for strategy in strategies {
        let params = Params {
            strategy,
            workers: 16,
            jobs: 100_000,
            durations: Durations::Uniform {
                min_us: 5_000,
                max_us: 15_000,
            },
            ..Params::default()
        };
        // Best of several, so a cold cache or a busy neighbour does not decide the figure.
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..repeats {
            let t = Instant::now();
            let out = match simulate(&params) {
                Ok(out) => out,
                Err(e) => {
                    eprintln!("bench: {e}");
                    std::process::exit(1);
                }
            };
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            last = Some(out);
        }
        let best = times.iter().copied().fold(f64::MAX, f64::min);
        if !json {
            println!("{strategy:<18} 16 workers × 100,000 jobs: {best:.1} ms (best of {repeats})");
        }
        let list: Vec<String> = times.iter().map(|t| format!("{t:.3}")).collect();
        timings.push(format!("\"{}\":[{}]", strategy.as_str(), list.join(",")));
        if let Some(out) = last {
            rows.push(out.summary());
        }
    }
    if json {
        println!(
            "{{\"workers\":16,\"jobs\":100000,\"ms\":{{{}}}}}",
            timings.join(",")
        );
    } else {
        print!("{}", format_table(&rows));
    }
}
