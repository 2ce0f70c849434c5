//! The calculator's inputs: each [`Field`] with its keys and bounds, the [`Workload`] they
//! make up, its validation ([`FieldError`]) and its URL query string.

use super::messages::Msg;
use super::signals::{HIGH_LOAD_PERCENT, MEDIUM_LOAD_PERCENT};
use super::SECONDS_PER_DAY;
use crate::i18n::Key;
use crate::keys;

/// One input of the calculator. Its `id` is the URL key and the suffix of its label key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    SustainedJobsPerS,
    PeakJobsPerS,
    JobDurationS,
    FanOutConsumers,
    ReplayNeeded,
    StrictOrdering,
    LatencyTargetMs,
    DbLoadPercent,
    LongTransactions,
}

/// The allowed range of a numeric input, both ends included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub min: f64,
    pub max: f64,
    /// Only whole numbers (the fan-out count).
    pub whole: bool,
}

impl Field {
    pub const ALL: [Field; 9] = [
        Field::SustainedJobsPerS,
        Field::PeakJobsPerS,
        Field::JobDurationS,
        Field::FanOutConsumers,
        Field::ReplayNeeded,
        Field::StrictOrdering,
        Field::LatencyTargetMs,
        Field::DbLoadPercent,
        Field::LongTransactions,
    ];

    /// URL key and id of the input element.
    pub fn id(self) -> &'static str {
        match self {
            Field::SustainedJobsPerS => "sustained",
            Field::PeakJobsPerS => "peak",
            Field::JobDurationS => "duration",
            Field::FanOutConsumers => "fanout",
            Field::ReplayNeeded => "replay",
            Field::StrictOrdering => "ordering",
            Field::LatencyTargetMs => "latency",
            Field::DbLoadPercent => "load",
            Field::LongTransactions => "longtx",
        }
    }

    pub fn from_id(id: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.id() == id)
    }

    pub fn label_key(self) -> Key {
        match self {
            Field::SustainedJobsPerS => keys::LEAVE_INPUT_SUSTAINED,
            Field::PeakJobsPerS => keys::LEAVE_INPUT_PEAK,
            Field::JobDurationS => keys::LEAVE_INPUT_DURATION,
            Field::FanOutConsumers => keys::LEAVE_INPUT_FANOUT,
            Field::ReplayNeeded => keys::LEAVE_INPUT_REPLAY,
            Field::StrictOrdering => keys::LEAVE_INPUT_ORDERING,
            Field::LatencyTargetMs => keys::LEAVE_INPUT_LATENCY,
            Field::DbLoadPercent => keys::LEAVE_INPUT_LOAD,
            Field::LongTransactions => keys::LEAVE_INPUT_LONGTX,
        }
    }

    /// One sentence under the input, explaining what to enter.
    pub fn help_key(self) -> Key {
        match self {
            Field::SustainedJobsPerS => keys::LEAVE_INPUT_SUSTAINED_HELP,
            Field::PeakJobsPerS => keys::LEAVE_INPUT_PEAK_HELP,
            Field::JobDurationS => keys::LEAVE_INPUT_DURATION_HELP,
            Field::FanOutConsumers => keys::LEAVE_INPUT_FANOUT_HELP,
            Field::ReplayNeeded => keys::LEAVE_INPUT_REPLAY_HELP,
            Field::StrictOrdering => keys::LEAVE_INPUT_ORDERING_HELP,
            Field::LatencyTargetMs => keys::LEAVE_INPUT_LATENCY_HELP,
            Field::DbLoadPercent => keys::LEAVE_INPUT_LOAD_HELP,
            Field::LongTransactions => keys::LEAVE_INPUT_LONGTX_HELP,
        }
    }

    /// The unit shown after a numeric input; `None` for the yes/no inputs.
    pub fn unit_key(self) -> Option<Key> {
        match self {
            Field::SustainedJobsPerS | Field::PeakJobsPerS => Some(keys::LEAVE_UNIT_JOBS_PER_S),
            Field::JobDurationS => Some(keys::LEAVE_UNIT_SECONDS),
            Field::FanOutConsumers => Some(keys::LEAVE_UNIT_CONSUMERS),
            Field::LatencyTargetMs => Some(keys::LEAVE_UNIT_MS),
            Field::DbLoadPercent => Some(keys::LEAVE_UNIT_PERCENT),
            Field::ReplayNeeded | Field::StrictOrdering | Field::LongTransactions => None,
        }
    }

    /// The range of a numeric input; `None` for the yes/no inputs.
    pub fn bounds(self) -> Option<Bounds> {
        let range = |min, max| {
            Some(Bounds {
                min,
                max,
                whole: false,
            })
        };
        match self {
            Field::SustainedJobsPerS | Field::PeakJobsPerS => range(0.0, 1_000_000.0),
            // A millisecond to a day.
            Field::JobDurationS => range(0.001, SECONDS_PER_DAY),
            Field::FanOutConsumers => Some(Bounds {
                min: 1.0,
                max: 100.0,
                whole: true,
            }),
            // A millisecond to an hour.
            Field::LatencyTargetMs => range(1.0, 3_600_000.0),
            Field::DbLoadPercent => range(0.0, 100.0),
            Field::ReplayNeeded | Field::StrictOrdering | Field::LongTransactions => None,
        }
    }

    pub fn is_flag(self) -> bool {
        self.bounds().is_none()
    }
}

/// How loaded the main database already is, in three bands of [`Workload::db_load_percent`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadBand {
    /// Below [`MEDIUM_LOAD_PERCENT`].
    Low,
    /// From [`MEDIUM_LOAD_PERCENT`] to below [`HIGH_LOAD_PERCENT`].
    Medium,
    /// [`HIGH_LOAD_PERCENT`] and up.
    High,
}

impl LoadBand {
    pub fn from_percent(percent: f64) -> LoadBand {
        if percent >= HIGH_LOAD_PERCENT {
            LoadBand::High
        } else if percent >= MEDIUM_LOAD_PERCENT {
            LoadBand::Medium
        } else {
            LoadBand::Low
        }
    }

    /// The percent a preset button sets (and `load=low|medium|high` in a URL means).
    pub fn typical_percent(self) -> f64 {
        match self {
            LoadBand::Low => 20.0,
            LoadBand::Medium => 55.0,
            LoadBand::High => 85.0,
        }
    }

    pub fn key(self) -> Key {
        match self {
            LoadBand::Low => keys::LEAVE_LOAD_LOW,
            LoadBand::Medium => keys::LEAVE_LOAD_MEDIUM,
            LoadBand::High => keys::LEAVE_LOAD_HIGH,
        }
    }
}

/// Where one input of a [`Workload`] is kept.
enum Slot<'a> {
    Number(&'a mut f64),
    Flag(&'a mut bool),
}

/// What the calculator is asked about. Numbers are plain `f64` so a UI can hold whatever
/// was typed; [`Workload::validate`] says what is out of range.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// Jobs per second, on average over a busy hour.
    pub sustained_jobs_per_s: f64,
    /// Jobs per second at the busiest minute; not below the sustained rate.
    pub peak_jobs_per_s: f64,
    /// How long one job runs, in seconds.
    pub job_duration_s: f64,
    /// Independent consumers (services, teams) that each need every event. 1 = a job queue.
    pub fan_out_consumers: f64,
    /// New or fixed consumers must re-read past events.
    pub replay_needed: bool,
    /// Jobs must complete in the order they were enqueued.
    pub strict_ordering: bool,
    /// How soon after enqueue a job must start, in milliseconds.
    pub latency_target_ms: f64,
    /// How loaded the main database already is without the queue, in percent.
    pub db_load_percent: f64,
    /// Long transactions (analytics, reports, idle in transaction) run on the primary.
    pub long_transactions: bool,
}

impl Default for Workload {
    /// A small service: the first worked case of the tests.
    fn default() -> Workload {
        Workload {
            sustained_jobs_per_s: 5.0,
            peak_jobs_per_s: 20.0,
            job_duration_s: 0.5,
            fan_out_consumers: 1.0,
            replay_needed: false,
            strict_ordering: false,
            latency_target_ms: 1_000.0,
            db_load_percent: 20.0,
            long_transactions: false,
        }
    }
}

/// Why an input was refused: which input, a message key, and the bound it crossed.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub field: Field,
    /// One of `leave.error.*`.
    pub key: Key,
    /// The minimum or maximum crossed; for `peak_below_sustained`, the sustained rate.
    pub bound: Option<f64>,
}

impl FieldError {
    fn new(field: Field, key: Key, bound: Option<f64>) -> FieldError {
        FieldError { field, key, bound }
    }

    /// The message to show beside the input.
    pub fn msg(&self) -> Msg {
        let name = match self.key {
            keys::LEAVE_ERROR_BELOW_MIN => "min",
            keys::LEAVE_ERROR_ABOVE_MAX => "max",
            keys::LEAVE_ERROR_PEAK_BELOW_SUSTAINED => "sustained",
            _ => return Msg::new(self.key),
        };
        match self.bound {
            Some(bound) => Msg::new(self.key).num(name, bound),
            None => Msg::new(self.key),
        }
    }
}

fn check_number(field: Field, value: f64, bounds: Bounds) -> Option<FieldError> {
    if !value.is_finite() {
        Some(FieldError::new(field, keys::LEAVE_ERROR_NOT_A_NUMBER, None))
    } else if value < bounds.min {
        Some(FieldError::new(
            field,
            keys::LEAVE_ERROR_BELOW_MIN,
            Some(bounds.min),
        ))
    } else if value > bounds.max {
        Some(FieldError::new(
            field,
            keys::LEAVE_ERROR_ABOVE_MAX,
            Some(bounds.max),
        ))
    } else if bounds.whole && value.fract() != 0.0 {
        Some(FieldError::new(field, keys::LEAVE_ERROR_NOT_WHOLE, None))
    } else {
        None
    }
}

fn parse_flag(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

impl Workload {
    /// The article's worked case of §6 (PlanetScale's): 800 jobs a second, 1,200 at peak,
    /// beside heavy analytics that keep a transaction open, the database 85 % busy.
    pub fn planetscale_case() -> Workload {
        Workload {
            sustained_jobs_per_s: 800.0,
            peak_jobs_per_s: 1_200.0,
            job_duration_s: 0.2,
            db_load_percent: 85.0,
            long_transactions: true,
            ..Workload::default()
        }
    }

    /// The worked case of §8: five teams consuming the same events (fan-out).
    pub fn five_teams_case() -> Workload {
        Workload {
            sustained_jobs_per_s: 50.0,
            peak_jobs_per_s: 200.0,
            fan_out_consumers: 5.0,
            ..Workload::default()
        }
    }

    /// The value of a numeric input; `None` for a yes/no input.
    pub fn number(&self, field: Field) -> Option<f64> {
        match self.clone().slot(field) {
            Slot::Number(v) => Some(*v),
            Slot::Flag(_) => None,
        }
    }

    /// The value of a yes/no input; `None` for a numeric input.
    pub fn flag(&self, field: Field) -> Option<bool> {
        match self.clone().slot(field) {
            Slot::Flag(v) => Some(*v),
            Slot::Number(_) => None,
        }
    }

    /// Where `field` is kept: the one map from inputs to fields that reading and setting share.
    fn slot(&mut self, field: Field) -> Slot<'_> {
        match field {
            Field::SustainedJobsPerS => Slot::Number(&mut self.sustained_jobs_per_s),
            Field::PeakJobsPerS => Slot::Number(&mut self.peak_jobs_per_s),
            Field::JobDurationS => Slot::Number(&mut self.job_duration_s),
            Field::FanOutConsumers => Slot::Number(&mut self.fan_out_consumers),
            Field::LatencyTargetMs => Slot::Number(&mut self.latency_target_ms),
            Field::DbLoadPercent => Slot::Number(&mut self.db_load_percent),
            Field::ReplayNeeded => Slot::Flag(&mut self.replay_needed),
            Field::StrictOrdering => Slot::Flag(&mut self.strict_ordering),
            Field::LongTransactions => Slot::Flag(&mut self.long_transactions),
        }
    }

    pub fn load_band(&self) -> LoadBand {
        LoadBand::from_percent(self.db_load_percent)
    }

    /// Sets one input from text, as typed or as found in a URL. Numbers must parse (a dot
    /// for decimals); yes/no accepts `1/0`, `true/false`, `yes/no`, `on/off`; the load also
    /// accepts `low`, `medium`, `high`. Ranges are [`Workload::validate`]'s job.
    pub fn set_from_str(&mut self, field: Field, text: &str) -> Result<(), FieldError> {
        if let Slot::Flag(slot) = self.slot(field) {
            return match parse_flag(text) {
                Some(value) => {
                    *slot = value;
                    Ok(())
                }
                None => Err(FieldError::new(field, keys::LEAVE_ERROR_NOT_BOOL, None)),
            };
        }
        let text = text.trim();
        let band = match text.to_ascii_lowercase().as_str() {
            "low" => Some(LoadBand::Low),
            "medium" => Some(LoadBand::Medium),
            "high" => Some(LoadBand::High),
            _ => None,
        };
        let value = match (field, band) {
            (Field::DbLoadPercent, Some(band)) => band.typical_percent(),
            _ => text
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| FieldError::new(field, keys::LEAVE_ERROR_NOT_A_NUMBER, None))?,
        };
        if let Slot::Number(slot) = self.slot(field) {
            *slot = value;
        }
        Ok(())
    }

    /// Refuses out-of-range inputs: at most one error per input, in [`Field::ALL`] order.
    pub fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut errors: Vec<FieldError> = Field::ALL
            .into_iter()
            .filter_map(|field| {
                let bounds = field.bounds()?;
                check_number(field, self.number(field)?, bounds)
            })
            .collect();
        let rates_valid = !errors
            .iter()
            .any(|e| matches!(e.field, Field::SustainedJobsPerS | Field::PeakJobsPerS));
        if rates_valid && self.peak_jobs_per_s < self.sustained_jobs_per_s {
            errors.push(FieldError::new(
                Field::PeakJobsPerS,
                keys::LEAVE_ERROR_PEAK_BELOW_SUSTAINED,
                Some(self.sustained_jobs_per_s),
            ));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// The inputs as `sustained=5&peak=20&…&longtx=0`, every input, in [`Field::ALL`]
    /// order. Numbers are written in Rust's shortest round-trip form, flags as `1`/`0`;
    /// nothing needs percent-encoding.
    pub fn to_query(&self) -> String {
        Field::ALL
            .into_iter()
            .map(|field| {
                let value = match (self.number(field), self.flag(field)) {
                    (Some(number), _) => format!("{number}"),
                    (None, Some(true)) => "1".to_string(),
                    _ => "0".to_string(),
                };
                format!("{}={}", field.id(), value)
            })
            .collect::<Vec<_>>()
            .join("&")
    }

    /// Reads inputs from a query string. Accepts a bare `key=value&…`, or anything that
    /// ends in one after a `?` (a full URL, a hash route like `#/leave?sustained=5`); a
    /// trailing `#fragment` is dropped. Unknown keys (`lab`, `lang`, `embed`…) are ignored,
    /// missing inputs keep their [`Workload::default`] value, a repeated key's last value
    /// wins. Returns the validated workload, or every parse and range error.
    pub fn from_query(query: &str) -> Result<Workload, Vec<FieldError>> {
        let query = query.rsplit_once('?').map_or(query, |(_, q)| q);
        let query = query.split_once('#').map_or(query, |(q, _)| q);
        let texts = query.split('&').filter_map(|pair| {
            let (key, value) = pair.split_once('=')?;
            Some((Field::from_id(key.trim())?, value))
        });
        Workload::from_texts(texts)
    }

    /// Reads inputs as typed, `(field, text)`: a field given twice takes its last text,
    /// missing inputs keep their [`Workload::default`] value. Returns the validated
    /// workload, or every input's problem, at most one per input, in [`Field::ALL`] order: a
    /// text that does not read first, then a range error. "Peak below sustained" is left out
    /// when the sustained rate itself does not read (it would compare with the default).
    pub fn from_texts<'a>(
        texts: impl IntoIterator<Item = (Field, &'a str)>,
    ) -> Result<Workload, Vec<FieldError>> {
        let mut workload = Workload::default();
        let mut errors: Vec<FieldError> = Vec::new();
        for (field, text) in texts {
            errors.retain(|e| e.field != field);
            if let Err(error) = workload.set_from_str(field, text) {
                errors.push(error);
            }
        }
        let sustained_unreadable = errors.iter().any(|e| e.field == Field::SustainedJobsPerS);
        if let Err(range_errors) = workload.validate() {
            for error in range_errors {
                let stale =
                    sustained_unreadable && error.key == keys::LEAVE_ERROR_PEAK_BELOW_SUSTAINED;
                if !stale && !errors.iter().any(|e| e.field == error.field) {
                    errors.push(error);
                }
            }
        }
        if errors.is_empty() {
            Ok(workload)
        } else {
            errors.sort_by_key(|e| Field::ALL.iter().position(|f| *f == e.field));
            Err(errors)
        }
    }
}
