//! L5's state outside the view: the inputs as typed, the worked cases of §8, and reading
//! the inputs from the page's URL. The decision logic itself is `queue_lab_core::advisor`.

use crate::keys;
use queue_lab_core::advisor::{Field, FieldError, Workload};
use queue_lab_core::i18n::Key;

/// The three worked cases (§6 and §8) the page offers as buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// A side project at 5 jobs a second: stay.
    SideProject,
    /// 800 jobs a second beside heavy analytics with a long transaction (PlanetScale, §6).
    PlanetScale,
    /// Five teams consuming the same events: fan-out.
    FiveTeams,
}

impl Case {
    pub const ALL: [Case; 3] = [Case::SideProject, Case::PlanetScale, Case::FiveTeams];

    /// Used in element ids (`case-side`…).
    pub fn id(self) -> &'static str {
        match self {
            Case::SideProject => "side",
            Case::PlanetScale => "planetscale",
            Case::FiveTeams => "teams",
        }
    }

    pub fn label_key(self) -> Key {
        match self {
            Case::SideProject => keys::LEAVE_UI_CASE_SIDE,
            Case::PlanetScale => keys::LEAVE_UI_CASE_PLANETSCALE,
            Case::FiveTeams => keys::LEAVE_UI_CASE_TEAMS,
        }
    }

    pub fn workload(self) -> Workload {
        match self {
            Case::SideProject => Workload::default(),
            Case::PlanetScale => Workload::planetscale_case(),
            Case::FiveTeams => Workload::five_teams_case(),
        }
    }
}

/// How an input's value is written: numbers in their shortest round-trip form, flags 1/0.
pub fn value_text(w: &Workload, field: Field) -> String {
    match (w.number(field), w.flag(field)) {
        (Some(n), _) => format!("{n}"),
        (None, Some(true)) => "1".to_owned(),
        _ => "0".to_owned(),
    }
}

/// Every input's text as the learner typed it (flags as `1`/`0`), in [`Field::ALL`] order.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft(Vec<(Field, String)>);

impl Draft {
    pub fn from_workload(w: &Workload) -> Draft {
        Draft(
            Field::ALL
                .into_iter()
                .map(|f| (f, value_text(w, f)))
                .collect(),
        )
    }

    pub fn get(&self, field: Field) -> String {
        self.0
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, t)| t.clone())
            .unwrap_or_default()
    }

    pub fn set(&mut self, field: Field, text: String) {
        if let Some(slot) = self.0.iter_mut().find(|(f, _)| *f == field) {
            slot.1 = text;
        }
    }

    /// Overwrites the inputs named in a `key=value&…` query (unknown keys ignored; values
    /// percent-decoded by `decode`).
    pub fn with_query(mut self, query: &str, decode: impl Fn(&str) -> String) -> Draft {
        for pair in query.split('&') {
            let Some((key, value)) = pair.split_once('=') else {
                continue;
            };
            if let Some(field) = Field::from_id(key.trim()) {
                self.set(field, decode(value));
            }
        }
        self
    }

    /// The workload, or every input's problem (at most one per input, in field order).
    pub fn parse(&self) -> Result<Workload, Vec<FieldError>> {
        Workload::from_texts(self.0.iter().map(|(field, text)| (*field, text.as_str())))
    }
}

/// The query part of a URL's hash route (`#/leave?sustained=5` → `sustained=5`).
pub fn hash_query(hash: &str) -> &str {
    hash.split_once('?').map_or("", |(_, q)| q)
}

/// The error shown beside `field`, if any.
pub fn error_for(errors: &[FieldError], field: Field) -> Option<&FieldError> {
    errors.iter().find(|e| e.field == field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use queue_lab_core::advisor::{advise, Recommendation, SignalKind};

    fn plain(s: &str) -> String {
        s.to_owned()
    }

    #[test]
    fn the_worked_cases_give_what_section_8_says() {
        let side = advise(&Case::SideProject.workload()).expect("valid");
        assert!(side.signals.iter().all(|s| !s.met));
        assert_eq!(side.recommendation, Recommendation::StayOnOnePostgres);

        let ps = advise(&Case::PlanetScale.workload()).expect("valid");
        assert!(ps.is_met(SignalKind::AutovacuumBehind));
        assert_eq!(ps.recommendation, Recommendation::QueueOnOwnPostgres);

        let teams = advise(&Case::FiveTeams.workload()).expect("valid");
        assert!(teams.is_met(SignalKind::FanOut));
        assert_eq!(teams.recommendation, Recommendation::Log);
    }

    #[test]
    fn a_draft_round_trips_a_workload_and_its_query() {
        for case in Case::ALL {
            let w = case.workload();
            assert_eq!(Draft::from_workload(&w).parse(), Ok(w.clone()));
            let from_url =
                Draft::from_workload(&Workload::default()).with_query(&w.to_query(), plain);
            assert_eq!(from_url.parse(), Ok(w));
        }
    }

    #[test]
    fn a_bad_input_is_reported_on_its_own_field_only() {
        let mut d = Draft::from_workload(&Workload::default());
        d.set(Field::DbLoadPercent, "150".into());
        d.set(Field::SustainedJobsPerS, "abc".into());
        let errors = d.parse().expect_err("invalid");
        let fields: Vec<_> = errors.iter().map(|e| (e.field, e.key)).collect();
        assert_eq!(
            fields,
            vec![
                (
                    Field::SustainedJobsPerS,
                    queue_lab_core::keys::LEAVE_ERROR_NOT_A_NUMBER
                ),
                (
                    Field::DbLoadPercent,
                    queue_lab_core::keys::LEAVE_ERROR_ABOVE_MAX
                ),
            ]
        );
    }

    #[test]
    fn the_hash_route_carries_the_query_and_unknown_keys_are_ignored() {
        assert_eq!(hash_query("#/leave?sustained=7&x=1"), "sustained=7&x=1");
        assert_eq!(hash_query("#/leave"), "");
        let d = Draft::from_workload(&Workload::default())
            .with_query("sustained=7&peak=9&x=1&load=high", plain);
        let w = d.parse().expect("valid");
        assert_eq!(
            (w.sustained_jobs_per_s, w.peak_jobs_per_s, w.db_load_percent),
            (7.0, 9.0, 85.0)
        );
    }
}
