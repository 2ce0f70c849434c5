//! The virtual clock every lab runs on (see `src/sql/lab/clock_install.sql`).

use crate::db::{Db, DbError};
use crate::keys;
use queue_lab_core::i18n::Msg;
use serde::Deserialize;

pub const INSTALL_SQL: &str = include_str!("sql/lab/clock_install.sql");
pub const ADVANCE_SQL: &str = include_str!("sql/lab/clock_advance.sql");
pub const NOW_SQL: &str = include_str!("sql/lab/clock_now.sql");
pub const RESET_SQL: &str = include_str!("sql/lab/clock_reset.sql");
pub const SESSION_START_SQL: &str = include_str!("sql/lab/session_start.sql");

/// Where lab time starts (a lab's Reset puts it back here; see `clock_reset.sql`).
pub const START: &str = "2026-01-05 09:00:00+00";

/// The largest single step the clock takes: a day. Larger steps are refused with a reason.
pub const MAX_STEP_SECONDS: i64 = 86_400;

#[derive(Deserialize)]
struct Now {
    now: String,
}

/// Creates the `lab` schema and its clock, and puts `lab` first on the search path.
pub async fn install(db: &Db) -> Result<(), DbError> {
    db.exec(INSTALL_SQL).await
}

/// Readies a database that has just been opened for the labs, and returns the server's
/// version: installs the clock after an initdb start (the prepared data directory holds it
/// already), then sets the session's lab time and search path (`session_start.sql`).
pub async fn start(db: &Db) -> Result<String, DbError> {
    if !db.boot().from_datadir {
        install(db).await?;
    }
    #[derive(Deserialize)]
    struct Started {
        version: String,
    }
    let rows = db.query::<Started>(SESSION_START_SQL, &[]).await?;
    rows.first()
        .map(|s| s.version)
        .ok_or_else(|| DbError::other("the session's first statement returned no row"))
}

/// Puts lab time back to the start (a lab's Reset, so a replayed state matches).
pub async fn reset(db: &Db) -> Result<String, DbError> {
    let rows = db.query::<Now>(RESET_SQL, &[]).await?;
    rows.first()
        .map(|n| n.now)
        .ok_or_else(|| DbError::other("the lab clock did not reset"))
}

/// Lab time as Postgres prints it, e.g. `2026-01-05 09:00:30+00`.
pub async fn now(db: &Db) -> Result<String, DbError> {
    let rows = db.query::<Now>(NOW_SQL, &[]).await?;
    rows.first()
        .map(|n| n.now)
        .ok_or_else(|| DbError::other("the lab clock has no row"))
}

/// Moves lab time forward by `seconds` and returns the new time.
pub async fn advance(db: &Db, seconds: i64) -> Result<String, DbError> {
    if !(1..=MAX_STEP_SECONDS).contains(&seconds) {
        return Err(DbError::other(&format!(
            "clock step out of range: {seconds}"
        )));
    }
    let rows = db.query::<Now>(ADVANCE_SQL, &[seconds.into()]).await?;
    rows.first()
        .map(|n| n.now)
        .ok_or_else(|| DbError::other("the lab clock has no row"))
}

/// Parses a clock step typed by a learner: whole seconds, 1 to a day.
pub fn parse_step(text: &str) -> Result<i64, Msg> {
    use queue_lab_core::input::{whole_in, Refused};
    let trimmed = text.trim();
    whole_in(trimmed.trim_end_matches('s'), 1, MAX_STEP_SECONDS).map_err(|refused| match refused {
        Refused::NotANumber(_) => Msg::new(keys::CLOCK_STEP_NOT_NUMBER).arg("text", trimmed),
        Refused::OutOfRange(n) => Msg::new(keys::CLOCK_STEP_OUT_OF_RANGE)
            .arg("max", MAX_STEP_SECONDS)
            .arg("n", n),
    })
}

/// The time-of-day part of a Postgres timestamp, for compact display (`09:00:30`).
pub fn time_of_day(ts: &str) -> &str {
    ts.split(' ').nth(1).map_or(ts, |t| t.get(..8).unwrap_or(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_parsing_accepts_seconds_and_refuses_the_rest_with_a_reason() {
        assert_eq!(parse_step("30"), Ok(30));
        assert_eq!(parse_step(" 45s "), Ok(45));
        assert_eq!(
            parse_step("ten").map_err(|m| m.key),
            Err(keys::CLOCK_STEP_NOT_NUMBER)
        );
        assert_eq!(
            parse_step("0").map_err(|m| m.key),
            Err(keys::CLOCK_STEP_OUT_OF_RANGE)
        );
        assert!(parse_step("-5").is_err());
        assert!(parse_step("86401").is_err());
    }

    #[test]
    fn time_of_day_is_cut_from_postgres_text() {
        assert_eq!(time_of_day("2026-01-05 09:00:30+00"), "09:00:30");
        assert_eq!(time_of_day("2026-01-05 09:00:30.5+00"), "09:00:30");
    }
}
