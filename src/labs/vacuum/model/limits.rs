//! How big a run of L3 the tab takes: a run is refused up front, with the reason, above
//! the bounds measured here (not discovered by minutes of waiting or a tab out of memory).
use super::RunConfig;
use crate::keys;
use crate::ui::format::group;
use queue_lab_core::i18n::Msg;

/// At most this many jobs go through each table in one run (jobs per round × rounds).
/// Measured (`BENCH_ONLY=limits`, bench/results/2026-12-05-limits-before.md): 50,000 × 5
/// rounds (250,000) ran for 3.4 minutes and grew PostgreSQL's files, which PGlite keeps in the
/// tab's memory, to 1.2 GB; so a run is refused above this, before it starts.
pub const RUN_JOBS_MAX: u32 = 100_000;
/// At most this many claims a table in one run (claims a round × rounds). The article's
/// claim reads the whole table each time, so a small batch multiplies the run's time:
/// measured, 50,000 jobs in batches of 500 (100 claims) took 47 s for one round.
pub const RUN_CLAIMS_MAX: u32 = 100;

/// Refuses a run bigger than the tab can take in reasonable time and memory (see
/// [`RUN_JOBS_MAX`] and [`RUN_CLAIMS_MAX`]), with the bound that would let it run.
pub(super) fn within_the_tab(cfg: RunConfig) -> Result<RunConfig, Msg> {
    let jobs = u64::from(cfg.jobs) * u64::from(cfg.rounds);
    if jobs > u64::from(RUN_JOBS_MAX) {
        return Err(Msg::new(keys::VACUUM_INPUT_RUN_TOO_MANY_JOBS)
            .arg("jobs", group(i64::from(cfg.jobs)))
            .arg("rounds", cfg.rounds)
            .arg("total", group(jobs as i64))
            .arg("max", group(i64::from(RUN_JOBS_MAX))));
    }
    let claims = cfg.jobs.div_ceil(cfg.batch) * cfg.rounds;
    if claims > RUN_CLAIMS_MAX {
        // The smallest batch that keeps the claims within the bound.
        let per_round = (RUN_CLAIMS_MAX / cfg.rounds).max(1);
        return Err(Msg::new(keys::VACUUM_INPUT_RUN_TOO_MANY_CLAIMS)
            .arg("batch", group(i64::from(cfg.batch)))
            .arg("claims", group(i64::from(claims)))
            .arg("max", RUN_CLAIMS_MAX)
            .arg("min", group(i64::from(cfg.jobs.div_ceil(per_round)))));
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::super::parse_config;

    #[test]
    fn a_run_bigger_than_the_tab_can_take_is_refused_with_the_reason() {
        // The largest run each bound still accepts.
        assert!(parse_config("50000", "2", "1000", vec![]).is_ok());
        assert!(parse_config("20000", "5", "1000", vec![]).is_ok());
        assert!(parse_config("20000", "3", "2000", vec![]).is_ok());
        // 50,000 × 5: the run measured at minutes and over a gigabyte.
        let e = parse_config("50000", "5", "5000", vec![]).unwrap_err();
        assert_eq!(e.key, crate::keys::VACUUM_INPUT_RUN_TOO_MANY_JOBS);
        assert!(e.args.contains(&("total", "250,000".into())));
        assert!(e.args.contains(&("max", "100,000".into())));
        assert!(parse_config("50000", "3", "5000", vec![]).is_err());
        // Batches of one: 50,000 claims a round, each reading the whole table.
        let e = parse_config("50000", "1", "1", vec![]).unwrap_err();
        assert_eq!(e.key, crate::keys::VACUUM_INPUT_RUN_TOO_MANY_CLAIMS);
        assert!(e.args.contains(&("claims", "50,000".into())));
        assert!(e.args.contains(&("min", "500".into())));
        // The batch it names is accepted; one less is not.
        assert!(parse_config("50000", "1", "500", vec![]).is_ok());
        assert!(parse_config("50000", "1", "499", vec![]).is_err());
        let e = parse_config("20000", "3", "500", vec![]).unwrap_err();
        assert!(e.args.contains(&("min", "607".into())));
        assert!(parse_config("20000", "3", "607", vec![]).is_ok());
        assert!(parse_config("20000", "3", "606", vec![]).is_err());
    }
}
