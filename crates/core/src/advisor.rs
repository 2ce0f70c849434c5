//! L5 "When to leave": the decision logic behind the calculator of article §8.
//!
//! What it is for: given a workload ([`Workload`]), say which of §8's leave-signals are met
//! and why, how many dead row versions the queue makes against what autovacuum clears, what
//! to recommend (stay on one Postgres, give the queue its own Postgres, a log, a managed
//! queue), what to fix first, and the article's reference figures as data. It also encodes
//! and decodes the inputs as a URL query string, so a lab state can be shared.
//!
//! What it is not for: no UI, no translation lookup, no web types, no I/O. It never measures
//! anything; every number it produces comes from the plain model below and says so.
//!
//! # Messages
//!
//! Every sentence the advisor produces is a [`Msg`]: a key prefixed `leave.` and a list of
//! named numbers. The texts live in `assets/i18n/leave.tsv`, one line per key,
//! `key<TAB>en<TAB>ko`, no header. Placeholder syntax: `{name}`, where `name` is one of the
//! message's argument names (lowercase ASCII letters and `_`). [`fill`] replaces each
//! placeholder with the number formatted by [`format_number`]; a `{…}` that names no
//! argument is left as it is. The texts use no other braces, so there is no escaping.
//! Input labels, units and help texts are keys too (see [`Field`]); [`MESSAGE_KEYS`] lists
//! every key, and a test checks the TSV against it.
//!
//! # The dead-tuple model (and what it does not know)
//!
//! One job, on the success path of the article's queue (§2), is three statements:
//! - `INSERT` writes the `ready` version: no dead version.
//! - the claim `UPDATE` writes a `running` version; the `ready` one is now dead (1).
//! - completion either `DELETE`s the row (the `running` version is dead: 2) or `UPDATE`s it to
//!   `done` (the `running` version is dead: 2, and the `done` row stays until it is purged,
//!   which makes a third dead version unless its partition is dropped or truncated).
//!
//! So [`DEAD_VERSIONS_PER_JOB`] is 2. The claim changes `status`, a column the partial index's
//! predicate reads, so it cannot be a HOT update: each version also leaves index entries that
//! only VACUUM removes. Retries add two more per failed attempt (fail + next claim), each
//! heartbeat one, each rolled-back enqueue one; the model counts none of these.
//!
//! What autovacuum clears is bounded by two things, and the model shows both:
//! - **The horizon.** While any transaction that started earlier is open, VACUUM may remove
//!   none of the versions that died after it began (§6). With long transactions on the primary
//!   the model says autovacuum clears 0 per second: that is the PlanetScale case.
//! - **Its I/O budget.** Autovacuum sleeps `autovacuum_vacuum_cost_delay` (2 ms since
//!   PostgreSQL 12) each time it has spent `autovacuum_vacuum_cost_limit` (200) cost units:
//!   at most 100,000 units a second. We charge a heap page 2 (miss) + 20 (dirtied) + 1 (second
//!   pass, hit) and assume [`ROWS_PER_HEAP_PAGE`] versions per 8 KB page (about 200 bytes a
//!   row with a small `jsonb` payload), plus one dirtied b-tree leaf per
//!   [`INDEX_ENTRIES_PER_LEAF_PAGE`] dead index entries. That gives a ceiling of dead versions
//!   per second (rounded to two figures); the tuned settings raise the cost limit tenfold.
//!
//! The ceiling ignores WAL and checkpoints, disk speed, whole-index scans on big tables, the
//! three autovacuum workers sharing one budget, and every other table. It is an order of
//! magnitude, not a forecast: its lesson is that at the rates a queue usually runs,
//! autovacuum's speed is rarely the limit; a pinned horizon, and the gap between passes, are.
//!
//! The gap between passes: autovacuum looks at the table every `autovacuum_naptime` (60 s) and
//! starts a pass once the dead versions exceed `threshold + scale_factor × live rows` (50 +
//! 20 %). Live rows come from Little's law: arrival rate × (job duration + latency target),
//! assuming completed jobs are deleted and the workers keep up. So a table can carry up to
//! `trigger + dead per second × naptime` dead versions before a pass starts
//! ([`VacuumEstimate::dead_before_pass`]); the article's lab showed what 20,000 of them do to
//! the claim query (723 pages read instead of 2).

/// Dead row versions one job leaves on the success path: the claim and the completion.
pub const DEAD_VERSIONS_PER_JOB: f64 = 2.0;
/// Statements one job costs the database on the success path: insert, claim, complete.
pub const STATEMENTS_PER_JOB: f64 = 3.0;
/// Assumed row versions per 8 KB heap page (about 200 bytes a row).
pub const ROWS_PER_HEAP_PAGE: f64 = 40.0;
/// Assumed b-tree entries per 8 KB leaf page of the queue's indexes.
pub const INDEX_ENTRIES_PER_LEAF_PAGE: f64 = 300.0;
/// `vacuum_cost_page_hit`, `vacuum_cost_page_miss` (PostgreSQL 14+), `vacuum_cost_page_dirty`.
pub const COST_PAGE_HIT: f64 = 1.0;
pub const COST_PAGE_MISS: f64 = 2.0;
pub const COST_PAGE_DIRTY: f64 = 20.0;
/// Dead versions between passes above which we advise tuning: the article's lab round of
/// 20,000 made the claim read 723 pages instead of 2 (§6).
pub const BLOAT_WARNING_DEAD: f64 = 20_000.0;
/// The article's lease: `locked_until = now() + 30 seconds` (§4).
pub const LEASE_S: f64 = 30.0;
/// A worker polling once a second starts a job up to a second late (§5).
pub const POLL_INTERVAL_MS: f64 = 1_000.0;
/// Independent consumers of the same event from which fan-out is a leave-signal. Our
/// judgement, not the article's number: with two, the producer can still enqueue one job per
/// consumer in the same transaction; from three on, every new team means changing the
/// producer, which is the shape publish/subscribe exists for.
pub const FAN_OUT_LEAVE_AT: f64 = 3.0;
/// "Thousands per second, sustained" (§8) starts here.
pub const THOUSANDS_LEAVE_AT: f64 = 1_000.0;
/// Main-database load (percent) from which it counts as already heavily loaded.
pub const HIGH_LOAD_PERCENT: f64 = 70.0;
/// Main-database load (percent) from which it counts as medium (for [`LoadBand`]).
pub const MEDIUM_LOAD_PERCENT: f64 = 40.0;
/// Jobs per second from which the queue's writes matter on a heavily loaded database. The
/// article: "up to a few hundred a second, the operating burden hardly grows"; on a database
/// that is already at its limit, a hundred a second (300 writes) is not nothing.
pub const QUEUE_MATTERS_AT: f64 = 100.0;

const SECONDS_PER_DAY: f64 = 86_400.0;

// ---------------------------------------------------------------------------------------
// Messages

/// A sentence for the UI to translate: a key of `assets/i18n/leave.tsv` and its numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Msg {
    pub key: &'static str,
    /// Named numbers for the `{name}` placeholders, unformatted.
    pub args: Vec<(&'static str, f64)>,
}

impl Msg {
    pub fn new(key: &'static str) -> Msg {
        Msg {
            key,
            args: Vec::new(),
        }
    }

    pub fn with(mut self, name: &'static str, value: f64) -> Msg {
        self.args.push((name, value));
        self
    }

    pub fn arg(&self, name: &str) -> Option<f64> {
        self.args.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

/// Formats a number for a message: from 100 up, rounded to a whole number (halves away
/// from zero) with commas between thousands; one decimal from 10; two below; trailing
/// zeros dropped. Korean uses the same separators, so one format serves both languages.
pub fn format_number(value: f64) -> String {
    if !value.is_finite() {
        return "–".to_string();
    }
    let magnitude = value.abs();
    let text = if magnitude >= 100.0 {
        group_thousands(&format!("{:.0}", magnitude.round()))
    } else {
        let decimals = if magnitude >= 10.0 { 1 } else { 2 };
        let fixed = format!("{:.*}", decimals, magnitude);
        fixed
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    };
    if value < 0.0 && text != "0" {
        format!("-{text}")
    } else {
        text
    }
}

fn group_thousands(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Replaces each `{name}` in a translated template with the message's number of that name.
pub fn fill(template: &str, msg: &Msg) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => match msg.arg(&after[..close]) {
                Some(value) => {
                    out.push_str(&format_number(value));
                    rest = &after[close + 1..];
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            },
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------------------
// Inputs

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

    pub fn label_key(self) -> &'static str {
        match self {
            Field::SustainedJobsPerS => "leave.input.sustained",
            Field::PeakJobsPerS => "leave.input.peak",
            Field::JobDurationS => "leave.input.duration",
            Field::FanOutConsumers => "leave.input.fanout",
            Field::ReplayNeeded => "leave.input.replay",
            Field::StrictOrdering => "leave.input.ordering",
            Field::LatencyTargetMs => "leave.input.latency",
            Field::DbLoadPercent => "leave.input.load",
            Field::LongTransactions => "leave.input.longtx",
        }
    }

    /// One sentence under the input, explaining what to enter.
    pub fn help_key(self) -> &'static str {
        match self {
            Field::SustainedJobsPerS => "leave.input.sustained.help",
            Field::PeakJobsPerS => "leave.input.peak.help",
            Field::JobDurationS => "leave.input.duration.help",
            Field::FanOutConsumers => "leave.input.fanout.help",
            Field::ReplayNeeded => "leave.input.replay.help",
            Field::StrictOrdering => "leave.input.ordering.help",
            Field::LatencyTargetMs => "leave.input.latency.help",
            Field::DbLoadPercent => "leave.input.load.help",
            Field::LongTransactions => "leave.input.longtx.help",
        }
    }

    /// The unit shown after a numeric input; `None` for the yes/no inputs.
    pub fn unit_key(self) -> Option<&'static str> {
        match self {
            Field::SustainedJobsPerS | Field::PeakJobsPerS => Some("leave.unit.jobs_per_s"),
            Field::JobDurationS => Some("leave.unit.seconds"),
            Field::FanOutConsumers => Some("leave.unit.consumers"),
            Field::LatencyTargetMs => Some("leave.unit.ms"),
            Field::DbLoadPercent => Some("leave.unit.percent"),
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

    pub fn key(self) -> &'static str {
        match self {
            LoadBand::Low => "leave.load.low",
            LoadBand::Medium => "leave.load.medium",
            LoadBand::High => "leave.load.high",
        }
    }
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
    pub key: &'static str,
    /// The minimum or maximum crossed; for `peak_below_sustained`, the sustained rate.
    pub bound: Option<f64>,
}

impl FieldError {
    fn new(field: Field, key: &'static str, bound: Option<f64>) -> FieldError {
        FieldError { field, key, bound }
    }

    /// The message to show beside the input.
    pub fn msg(&self) -> Msg {
        let name = match self.key {
            "leave.error.below_min" => "min",
            "leave.error.above_max" => "max",
            "leave.error.peak_below_sustained" => "sustained",
            _ => return Msg::new(self.key),
        };
        match self.bound {
            Some(bound) => Msg::new(self.key).with(name, bound),
            None => Msg::new(self.key),
        }
    }
}

fn check_number(field: Field, value: f64, bounds: Bounds) -> Option<FieldError> {
    if !value.is_finite() {
        Some(FieldError::new(field, "leave.error.not_a_number", None))
    } else if value < bounds.min {
        Some(FieldError::new(
            field,
            "leave.error.below_min",
            Some(bounds.min),
        ))
    } else if value > bounds.max {
        Some(FieldError::new(
            field,
            "leave.error.above_max",
            Some(bounds.max),
        ))
    } else if bounds.whole && value.fract() != 0.0 {
        Some(FieldError::new(field, "leave.error.not_whole", None))
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
    /// The value of a numeric input; `None` for a yes/no input.
    pub fn number(&self, field: Field) -> Option<f64> {
        match field {
            Field::SustainedJobsPerS => Some(self.sustained_jobs_per_s),
            Field::PeakJobsPerS => Some(self.peak_jobs_per_s),
            Field::JobDurationS => Some(self.job_duration_s),
            Field::FanOutConsumers => Some(self.fan_out_consumers),
            Field::LatencyTargetMs => Some(self.latency_target_ms),
            Field::DbLoadPercent => Some(self.db_load_percent),
            Field::ReplayNeeded | Field::StrictOrdering | Field::LongTransactions => None,
        }
    }

    /// The value of a yes/no input; `None` for a numeric input.
    pub fn flag(&self, field: Field) -> Option<bool> {
        match field {
            Field::ReplayNeeded => Some(self.replay_needed),
            Field::StrictOrdering => Some(self.strict_ordering),
            Field::LongTransactions => Some(self.long_transactions),
            _ => None,
        }
    }

    fn number_mut(&mut self, field: Field) -> Option<&mut f64> {
        match field {
            Field::SustainedJobsPerS => Some(&mut self.sustained_jobs_per_s),
            Field::PeakJobsPerS => Some(&mut self.peak_jobs_per_s),
            Field::JobDurationS => Some(&mut self.job_duration_s),
            Field::FanOutConsumers => Some(&mut self.fan_out_consumers),
            Field::LatencyTargetMs => Some(&mut self.latency_target_ms),
            Field::DbLoadPercent => Some(&mut self.db_load_percent),
            _ => None,
        }
    }

    fn flag_mut(&mut self, field: Field) -> Option<&mut bool> {
        match field {
            Field::ReplayNeeded => Some(&mut self.replay_needed),
            Field::StrictOrdering => Some(&mut self.strict_ordering),
            Field::LongTransactions => Some(&mut self.long_transactions),
            _ => None,
        }
    }

    pub fn load_band(&self) -> LoadBand {
        LoadBand::from_percent(self.db_load_percent)
    }

    /// Sets one input from text, as typed or as found in a URL. Numbers must parse (a dot
    /// for decimals); yes/no accepts `1/0`, `true/false`, `yes/no`, `on/off`; the load also
    /// accepts `low`, `medium`, `high`. Ranges are [`Workload::validate`]'s job.
    pub fn set_from_str(&mut self, field: Field, text: &str) -> Result<(), FieldError> {
        if let Some(slot) = self.flag_mut(field) {
            return match parse_flag(text) {
                Some(value) => {
                    *slot = value;
                    Ok(())
                }
                None => Err(FieldError::new(field, "leave.error.not_bool", None)),
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
                .ok_or_else(|| FieldError::new(field, "leave.error.not_a_number", None))?,
        };
        if let Some(slot) = self.number_mut(field) {
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
                "leave.error.peak_below_sustained",
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
        let mut workload = Workload::default();
        let mut errors: Vec<FieldError> = Vec::new();
        for pair in query.split('&') {
            let Some((key, value)) = pair.split_once('=') else {
                continue;
            };
            let Some(field) = Field::from_id(key.trim()) else {
                continue;
            };
            errors.retain(|e| e.field != field);
            if let Err(error) = workload.set_from_str(field, value) {
                errors.push(error);
            }
        }
        if let Err(range_errors) = workload.validate() {
            for error in range_errors {
                if !errors.iter().any(|e| e.field == error.field) {
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

// ---------------------------------------------------------------------------------------
// Dead tuples and autovacuum

/// The autovacuum settings the model reads. See the module doc for the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VacuumSettings {
    /// `autovacuum_vacuum_threshold`, rows.
    pub threshold: f64,
    /// `autovacuum_vacuum_scale_factor`, fraction of live rows.
    pub scale_factor: f64,
    /// `autovacuum_vacuum_cost_limit` (-1 means `vacuum_cost_limit`, 200).
    pub cost_limit: f64,
    /// `autovacuum_vacuum_cost_delay`, milliseconds.
    pub cost_delay_ms: f64,
    /// `autovacuum_naptime`, seconds. Server-wide: it cannot be set per table.
    pub naptime_s: f64,
}

impl VacuumSettings {
    /// PostgreSQL's defaults (12 and later).
    pub const DEFAULT: VacuumSettings = VacuumSettings {
        threshold: 50.0,
        scale_factor: 0.2,
        cost_limit: 200.0,
        cost_delay_ms: 2.0,
        naptime_s: 60.0,
    };

    /// What we suggest for a queue table: §6's per-table scale factor of 0.01, a tenfold
    /// cost limit (`alter table jobs set (autovacuum_vacuum_scale_factor = 0.01,
    /// autovacuum_vacuum_cost_limit = 2000)`), and a 15 s naptime server-wide.
    pub const TUNED: VacuumSettings = VacuumSettings {
        threshold: 50.0,
        scale_factor: 0.01,
        cost_limit: 2_000.0,
        cost_delay_ms: 2.0,
        naptime_s: 15.0,
    };

    /// Cost units autovacuum may spend per second: one cost limit per delay.
    pub fn cost_budget_per_s(&self) -> f64 {
        self.cost_limit / (self.cost_delay_ms / 1_000.0)
    }

    /// The model's ceiling on dead versions removed per second (horizon permitting).
    /// Rounded to two significant figures: the model is not more precise than that.
    pub fn clear_ceiling_per_s(&self) -> f64 {
        round_to_two_figures(self.cost_budget_per_s() / cost_per_dead_version())
    }

    /// Dead versions that start a pass, for a table of `live_rows`.
    pub fn trigger_dead(&self, live_rows: f64) -> f64 {
        self.threshold + self.scale_factor * live_rows
    }
}

fn round_to_two_figures(x: f64) -> f64 {
    if x <= 0.0 || !x.is_finite() {
        return x;
    }
    let scale = 10f64.powi(x.log10().floor() as i32 - 1);
    (x / scale).round() * scale
}

/// Cost units to remove one dead version: its share of a heap page (missed, dirtied, then
/// hit again in the second pass) and of a dirtied index leaf.
pub fn cost_per_dead_version() -> f64 {
    (COST_PAGE_MISS + COST_PAGE_DIRTY + COST_PAGE_HIT) / ROWS_PER_HEAP_PAGE
        + (COST_PAGE_HIT + COST_PAGE_DIRTY) / INDEX_ENTRIES_PER_LEAF_PAGE
}

/// What autovacuum does against the workload under one set of settings.
#[derive(Clone, Debug, PartialEq)]
pub struct VacuumEstimate {
    pub settings: VacuumSettings,
    /// The I/O-budget ceiling, dead versions per second, ignoring the horizon.
    pub clear_ceiling_per_s: f64,
    /// Dead versions per second it actually removes: the rate made, up to the ceiling;
    /// 0 while a long transaction pins the horizon.
    pub clears_per_s: f64,
    /// Dead versions that start a pass (`threshold + scale_factor × live rows`).
    pub trigger_dead: f64,
    /// Dead versions the table can carry before a pass starts (trigger + one naptime).
    pub dead_before_pass: f64,
    /// Removes at least what the workload makes, at the sustained rate.
    pub keeps_up: bool,
}

/// The dead versions the workload makes, beside what autovacuum clears.
#[derive(Clone, Debug, PartialEq)]
pub struct DeadTuples {
    /// [`DEAD_VERSIONS_PER_JOB`].
    pub dead_per_job: f64,
    /// Dead versions per second at the sustained rate.
    pub per_s: f64,
    /// Dead versions per second at the peak rate.
    pub per_s_at_peak: f64,
    /// Live rows in the queue table, by Little's law (see the module doc).
    pub live_rows: f64,
    /// A long transaction pins the xmin horizon: nothing that died after it is removable.
    pub horizon_pinned: bool,
    pub default: VacuumEstimate,
    pub tuned: VacuumEstimate,
}

impl DeadTuples {
    fn new(w: &Workload) -> DeadTuples {
        let per_s = w.sustained_jobs_per_s * DEAD_VERSIONS_PER_JOB;
        let live_rows = w.sustained_jobs_per_s * (w.job_duration_s + w.latency_target_ms / 1_000.0);
        let horizon_pinned = w.long_transactions && per_s > 0.0;
        let estimate = |settings: VacuumSettings| {
            let ceiling = settings.clear_ceiling_per_s();
            let trigger = settings.trigger_dead(live_rows);
            VacuumEstimate {
                settings,
                clear_ceiling_per_s: ceiling,
                clears_per_s: if horizon_pinned {
                    0.0
                } else {
                    per_s.min(ceiling)
                },
                trigger_dead: trigger,
                dead_before_pass: trigger + per_s * settings.naptime_s,
                keeps_up: !horizon_pinned && per_s <= ceiling,
            }
        };
        DeadTuples {
            dead_per_job: DEAD_VERSIONS_PER_JOB,
            per_s,
            per_s_at_peak: w.peak_jobs_per_s * DEAD_VERSIONS_PER_JOB,
            live_rows,
            horizon_pinned,
            default: estimate(VacuumSettings::DEFAULT),
            tuned: estimate(VacuumSettings::TUNED),
        }
    }

    /// The lines a view shows, in order: per job, made, default, tuned (or pinned).
    pub fn summary(&self) -> Vec<Msg> {
        let mut lines = vec![
            Msg::new("leave.dead.per_job").with("dead_per_job", self.dead_per_job),
            Msg::new("leave.dead.created")
                .with("dead_per_s", self.per_s)
                .with("dead_per_s_peak", self.per_s_at_peak),
        ];
        if self.horizon_pinned {
            lines.push(Msg::new("leave.dead.pinned").with("dead_per_hour", self.per_s * 3_600.0));
        }
        for (key, estimate) in [
            ("leave.dead.default", &self.default),
            ("leave.dead.tuned", &self.tuned),
        ] {
            lines.push(
                Msg::new(key)
                    .with("clears_per_s", estimate.clears_per_s)
                    .with("ceiling_per_s", estimate.clear_ceiling_per_s)
                    .with("dead_before_pass", estimate.dead_before_pass)
                    .with("naptime_s", estimate.settings.naptime_s),
            );
        }
        lines.push(Msg::new("leave.dead.lab_reference"));
        lines.push(Msg::new("leave.dead.model"));
        lines
    }
}

// ---------------------------------------------------------------------------------------
// Signals, recommendation, advice

/// The leave-signals of §8, in the article's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignalKind {
    /// autovacuum cannot keep up: `n_dead_tup` keeps growing, the claim gets slower.
    AutovacuumBehind,
    /// the queue's writes, connections and I/O slow the core queries.
    QueueEatsMainDb,
    /// several services each subscribe to the same events.
    FanOut,
    /// past events must be replayed.
    Replay,
    /// thousands of jobs per second, sustained.
    SustainedThousands,
}

impl SignalKind {
    pub const ALL: [SignalKind; 5] = [
        SignalKind::AutovacuumBehind,
        SignalKind::QueueEatsMainDb,
        SignalKind::FanOut,
        SignalKind::Replay,
        SignalKind::SustainedThousands,
    ];

    pub fn id(self) -> &'static str {
        match self {
            SignalKind::AutovacuumBehind => "autovacuum",
            SignalKind::QueueEatsMainDb => "main_db",
            SignalKind::FanOut => "fan_out",
            SignalKind::Replay => "replay",
            SignalKind::SustainedThousands => "thousands",
        }
    }

    /// The signal's name, as §8 words it.
    pub fn title_key(self) -> &'static str {
        match self {
            SignalKind::AutovacuumBehind => "leave.signal.autovacuum",
            SignalKind::QueueEatsMainDb => "leave.signal.main_db",
            SignalKind::FanOut => "leave.signal.fan_out",
            SignalKind::Replay => "leave.signal.replay",
            SignalKind::SustainedThousands => "leave.signal.thousands",
        }
    }
}

/// One leave-signal's verdict and its reason in one sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Signal {
    pub kind: SignalKind,
    pub met: bool,
    pub reason: Msg,
}

impl Signal {
    /// `leave.status.met` or `leave.status.not_met`.
    pub fn status_key(&self) -> &'static str {
        if self.met {
            "leave.status.met"
        } else {
            "leave.status.not_met"
        }
    }
}

/// Where the queue should live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recommendation {
    /// Keep the queue in the main Postgres, in the same transactions as the data.
    StayOnOnePostgres,
    /// Move the queue to a Postgres instance of its own (§8: try this before leaving).
    QueueOnOwnPostgres,
    /// A log such as Kafka or Redpanda (fan-out, replay).
    Log,
    /// A managed queue such as SQS (sustained thousands per second).
    ManagedQueue,
}

impl Recommendation {
    pub fn id(self) -> &'static str {
        match self {
            Recommendation::StayOnOnePostgres => "stay",
            Recommendation::QueueOnOwnPostgres => "own_postgres",
            Recommendation::Log => "log",
            Recommendation::ManagedQueue => "managed_queue",
        }
    }

    /// A short name.
    pub fn key(self) -> &'static str {
        match self {
            Recommendation::StayOnOnePostgres => "leave.rec.stay",
            Recommendation::QueueOnOwnPostgres => "leave.rec.own_postgres",
            Recommendation::Log => "leave.rec.log",
            Recommendation::ManagedQueue => "leave.rec.managed_queue",
        }
    }

    /// Why, and what it costs, in a sentence or two.
    pub fn why_key(self) -> &'static str {
        match self {
            Recommendation::StayOnOnePostgres => "leave.rec.stay.why",
            Recommendation::QueueOnOwnPostgres => "leave.rec.own_postgres.why",
            Recommendation::Log => "leave.rec.log.why",
            Recommendation::ManagedQueue => "leave.rec.managed_queue.why",
        }
    }
}

/// Something to do before (or while) moving, in the order they are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fix {
    /// Long transactions pin the horizon: `idle_in_transaction_session_timeout`, analytics on
    /// a replica (without `hot_standby_feedback`, or it pins the primary again).
    EndLongTransactions,
    /// The default settings let too many dead versions pile up: [`VacuumSettings::TUNED`].
    TuneAutovacuum,
    /// Leaving the main database loses the same-transaction enqueue of §1: publish through
    /// an outbox table written in the business transaction.
    PublishThroughOutbox,
}

impl Fix {
    pub fn key(self) -> &'static str {
        match self {
            Fix::EndLongTransactions => "leave.fix.end_long_tx",
            Fix::TuneAutovacuum => "leave.fix.tune_autovacuum",
            Fix::PublishThroughOutbox => "leave.fix.outbox",
        }
    }
}

/// One operation of the small interface §8 advises to keep the queue behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InterfaceOp {
    /// `enqueue`, `dequeue`, `ack` or `fail`.
    pub op: &'static str,
    /// What it does on Postgres, and what it becomes on SQS and on a log.
    pub key: &'static str,
}

/// The sentence above the interface list.
pub const INTERFACE_INTRO_KEY: &str = "leave.interface.intro";

pub const INTERFACE: [InterfaceOp; 4] = [
    InterfaceOp {
        op: "enqueue",
        key: "leave.interface.enqueue",
    },
    InterfaceOp {
        op: "dequeue",
        key: "leave.interface.dequeue",
    },
    InterfaceOp {
        op: "ack",
        key: "leave.interface.ack",
    },
    InterfaceOp {
        op: "fail",
        key: "leave.interface.fail",
    },
];

/// A throughput figure the article cites (§7, §8), per second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReferenceFigure {
    pub id: &'static str,
    /// The sentence, with `{low}` and `{high}`.
    pub key: &'static str,
    pub low_per_s: f64,
    /// Equal to `low_per_s` for a single figure.
    pub high_per_s: f64,
    /// Measured on PostgreSQL (Solid Queue's figure is on MySQL; SQS is not a database).
    pub on_postgres: bool,
}

impl ReferenceFigure {
    pub fn msg(&self) -> Msg {
        Msg::new(self.key)
            .with("low", self.low_per_s)
            .with("high", self.high_per_s)
    }
}

/// The article's reference figures, in the order §8 gives them.
pub const REFERENCES: [ReferenceFigure; 7] = [
    ReferenceFigure {
        id: "graphile_worker",
        key: "leave.ref.graphile_worker",
        low_per_s: 180_000.0,
        high_per_s: 180_000.0,
        on_postgres: true,
    },
    ReferenceFigure {
        id: "river",
        key: "leave.ref.river",
        low_per_s: 46_000.0,
        high_per_s: 46_000.0,
        on_postgres: true,
    },
    ReferenceFigure {
        id: "hatchet",
        key: "leave.ref.hatchet",
        low_per_s: 10_000.0,
        high_per_s: 10_000.0,
        on_postgres: true,
    },
    ReferenceFigure {
        id: "sqs_fifo",
        key: "leave.ref.sqs_fifo",
        low_per_s: 300.0,
        high_per_s: 300.0,
        on_postgres: false,
    },
    ReferenceFigure {
        id: "sqs_fifo_batched",
        key: "leave.ref.sqs_fifo_batched",
        low_per_s: 3_000.0,
        high_per_s: 3_000.0,
        on_postgres: false,
    },
    ReferenceFigure {
        id: "sqs_fifo_high_throughput",
        key: "leave.ref.sqs_fifo_high_throughput",
        low_per_s: 9_000.0,
        high_per_s: 70_000.0,
        on_postgres: false,
    },
    ReferenceFigure {
        id: "solid_queue",
        key: "leave.ref.solid_queue",
        low_per_s: 20_000_000.0 / SECONDS_PER_DAY,
        high_per_s: 20_000_000.0 / SECONDS_PER_DAY,
        on_postgres: false,
    },
];

/// A link into another lab with this workload's inputs carried over, as URL parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct LabLink {
    /// `vacuum` (L3) or `pgq` (L4).
    pub lab: &'static str,
    /// Why follow it.
    pub reason_key: &'static str,
    /// Proposed parameters for that lab: `longtx=0|1` for L3, `consumers=N` for L4.
    pub params: Vec<(&'static str, String)>,
}

impl LabLink {
    /// `key=value&…` of [`LabLink::params`].
    pub fn query(&self) -> String {
        self.params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("&")
    }
}

/// Everything the calculator answers for one workload.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The five signals of §8, in [`SignalKind::ALL`] order.
    pub signals: Vec<Signal>,
    /// Considerations that are not leave-signals on their own: jobs in flight, latency,
    /// the lease (jobs of 30 s or more), strict ordering.
    pub notes: Vec<Msg>,
    pub dead_tuples: DeadTuples,
    pub recommendation: Recommendation,
    /// The met signals behind the recommendation; empty for [`Recommendation::StayOnOnePostgres`].
    pub driven_by: Vec<SignalKind>,
    pub fixes: Vec<Fix>,
    pub interface: &'static [InterfaceOp; 4],
    pub references: &'static [ReferenceFigure; 7],
    pub lab_links: Vec<LabLink>,
}

impl Verdict {
    pub fn signal(&self, kind: SignalKind) -> &Signal {
        // Every kind is present: `advise` builds one signal per kind.
        &self.signals[SignalKind::ALL.iter().position(|k| *k == kind).unwrap_or(0)]
    }

    pub fn is_met(&self, kind: SignalKind) -> bool {
        self.signal(kind).met
    }
}

fn autovacuum_signal(dead: &DeadTuples) -> Signal {
    let (met, reason) = if dead.horizon_pinned {
        (
            true,
            Msg::new("leave.autovacuum.met.long_tx")
                .with("dead_per_s", dead.per_s)
                .with("dead_per_hour", dead.per_s * 3_600.0),
        )
    } else if !dead.tuned.keeps_up {
        (
            true,
            Msg::new("leave.autovacuum.met.rate")
                .with("dead_per_s", dead.per_s)
                .with("tuned_ceiling_per_s", dead.tuned.clear_ceiling_per_s),
        )
    } else if !dead.default.keeps_up {
        (
            false,
            Msg::new("leave.autovacuum.not_met.tune")
                .with("dead_per_s", dead.per_s)
                .with("default_ceiling_per_s", dead.default.clear_ceiling_per_s)
                .with("tuned_ceiling_per_s", dead.tuned.clear_ceiling_per_s),
        )
    } else {
        (
            false,
            Msg::new("leave.autovacuum.not_met")
                .with("dead_per_s", dead.per_s)
                .with("default_ceiling_per_s", dead.default.clear_ceiling_per_s),
        )
    };
    Signal {
        kind: SignalKind::AutovacuumBehind,
        met,
        reason,
    }
}

fn main_db_signal(w: &Workload) -> Signal {
    let jobs = w.sustained_jobs_per_s;
    let writes = jobs * STATEMENTS_PER_JOB;
    let (met, reason) = if w.db_load_percent < HIGH_LOAD_PERCENT {
        (
            false,
            Msg::new("leave.main_db.not_met.light_load")
                .with("load", w.db_load_percent)
                .with("high_load", HIGH_LOAD_PERCENT)
                .with("writes_per_s", writes),
        )
    } else if jobs < QUEUE_MATTERS_AT {
        (
            false,
            Msg::new("leave.main_db.not_met.small_queue")
                .with("load", w.db_load_percent)
                .with("jobs_per_s", jobs)
                .with("writes_per_s", writes)
                .with("matters_at", QUEUE_MATTERS_AT),
        )
    } else {
        (
            true,
            Msg::new("leave.main_db.met")
                .with("load", w.db_load_percent)
                .with("jobs_per_s", jobs)
                .with("writes_per_s", writes),
        )
    };
    Signal {
        kind: SignalKind::QueueEatsMainDb,
        met,
        reason,
    }
}

fn fan_out_signal(w: &Workload) -> Signal {
    let consumers = w.fan_out_consumers;
    let (met, key) = if consumers >= FAN_OUT_LEAVE_AT {
        (true, "leave.fan_out.met")
    } else if consumers >= 2.0 {
        (false, "leave.fan_out.not_met.two")
    } else {
        (false, "leave.fan_out.not_met.single")
    };
    Signal {
        kind: SignalKind::FanOut,
        met,
        reason: Msg::new(key)
            .with("consumers", consumers)
            .with("leave_at", FAN_OUT_LEAVE_AT),
    }
}

fn replay_signal(w: &Workload) -> Signal {
    let key = if w.replay_needed {
        "leave.replay.met"
    } else {
        "leave.replay.not_met"
    };
    Signal {
        kind: SignalKind::Replay,
        met: w.replay_needed,
        reason: Msg::new(key),
    }
}

fn thousands_signal(w: &Workload) -> Signal {
    let jobs = w.sustained_jobs_per_s;
    let (met, reason) = if jobs >= THOUSANDS_LEAVE_AT {
        (
            true,
            Msg::new("leave.thousands.met")
                .with("jobs_per_s", jobs)
                .with("jobs_per_day", jobs * SECONDS_PER_DAY),
        )
    } else if w.peak_jobs_per_s >= THOUSANDS_LEAVE_AT {
        (
            false,
            Msg::new("leave.thousands.not_met.peak_only")
                .with("jobs_per_s", jobs)
                .with("peak_per_s", w.peak_jobs_per_s),
        )
    } else {
        (
            false,
            Msg::new("leave.thousands.not_met")
                .with("jobs_per_s", jobs)
                .with("jobs_per_day", jobs * SECONDS_PER_DAY),
        )
    };
    Signal {
        kind: SignalKind::SustainedThousands,
        met,
        reason,
    }
}

fn notes(w: &Workload) -> Vec<Msg> {
    let mut notes = vec![Msg::new("leave.note.in_flight")
        .with("in_flight", w.sustained_jobs_per_s * w.job_duration_s)
        .with("in_flight_peak", w.peak_jobs_per_s * w.job_duration_s)];
    let latency_key = if w.latency_target_ms < POLL_INTERVAL_MS {
        "leave.note.latency.notify"
    } else {
        "leave.note.latency.poll"
    };
    notes.push(
        Msg::new(latency_key)
            .with("latency_ms", w.latency_target_ms)
            .with("poll_ms", POLL_INTERVAL_MS),
    );
    if w.job_duration_s >= LEASE_S {
        notes.push(
            Msg::new("leave.note.lease.heartbeat")
                .with("duration_s", w.job_duration_s)
                .with("lease_s", LEASE_S),
        );
    }
    if w.strict_ordering {
        notes.push(Msg::new("leave.note.ordering.strict"));
    }
    notes
}

/// Answers the calculator for one workload, or refuses it with every out-of-range input.
///
/// The recommendation follows §8: fan-out or replay → a log; otherwise sustained thousands
/// per second → a managed queue; otherwise autovacuum falling behind or the queue eating
/// the main database → first the queue's own Postgres instance; otherwise stay.
pub fn advise(w: &Workload) -> Result<Verdict, Vec<FieldError>> {
    w.validate()?;
    let dead = DeadTuples::new(w);
    let signals = vec![
        autovacuum_signal(&dead),
        main_db_signal(w),
        fan_out_signal(w),
        replay_signal(w),
        thousands_signal(w),
    ];
    let met = |kinds: &[SignalKind]| -> Vec<SignalKind> {
        kinds
            .iter()
            .copied()
            .filter(|k| signals.iter().any(|s| s.kind == *k && s.met))
            .collect()
    };
    let rules = [
        (
            Recommendation::Log,
            met(&[SignalKind::FanOut, SignalKind::Replay]),
        ),
        (
            Recommendation::ManagedQueue,
            met(&[SignalKind::SustainedThousands]),
        ),
        (
            Recommendation::QueueOnOwnPostgres,
            met(&[SignalKind::AutovacuumBehind, SignalKind::QueueEatsMainDb]),
        ),
    ];
    let (recommendation, driven_by) = rules
        .into_iter()
        .find(|(_, driven_by)| !driven_by.is_empty())
        .unwrap_or((Recommendation::StayOnOnePostgres, Vec::new()));

    let mut fixes = Vec::new();
    if dead.horizon_pinned {
        fixes.push(Fix::EndLongTransactions);
    }
    if (!dead.default.keeps_up && !dead.horizon_pinned)
        || dead.default.dead_before_pass > BLOAT_WARNING_DEAD
    {
        fixes.push(Fix::TuneAutovacuum);
    }
    if recommendation != Recommendation::StayOnOnePostgres {
        fixes.push(Fix::PublishThroughOutbox);
    }

    let mut lab_links = vec![LabLink {
        lab: "vacuum",
        reason_key: "leave.link.vacuum",
        params: vec![(
            "longtx",
            if w.long_transactions { "1" } else { "0" }.to_string(),
        )],
    }];
    if w.fan_out_consumers >= 2.0 {
        lab_links.push(LabLink {
            lab: "pgq",
            reason_key: "leave.link.pgq",
            params: vec![("consumers", format!("{}", w.fan_out_consumers))],
        });
    }

    Ok(Verdict {
        signals,
        notes: notes(w),
        dead_tuples: dead,
        recommendation,
        driven_by,
        fixes,
        interface: &INTERFACE,
        references: &REFERENCES,
        lab_links,
    })
}

/// Every message key the advisor can emit, plus the input labels, units, help texts, load
/// bands, signal titles and statuses. `assets/i18n/leave.tsv` has exactly these keys.
pub const MESSAGE_KEYS: &[&str] = &[
    // inputs
    "leave.input.sustained",
    "leave.input.sustained.help",
    "leave.input.peak",
    "leave.input.peak.help",
    "leave.input.duration",
    "leave.input.duration.help",
    "leave.input.fanout",
    "leave.input.fanout.help",
    "leave.input.replay",
    "leave.input.replay.help",
    "leave.input.ordering",
    "leave.input.ordering.help",
    "leave.input.latency",
    "leave.input.latency.help",
    "leave.input.load",
    "leave.input.load.help",
    "leave.input.longtx",
    "leave.input.longtx.help",
    "leave.unit.jobs_per_s",
    "leave.unit.seconds",
    "leave.unit.consumers",
    "leave.unit.ms",
    "leave.unit.percent",
    "leave.load.low",
    "leave.load.medium",
    "leave.load.high",
    // input errors
    "leave.error.not_a_number",
    "leave.error.not_whole",
    "leave.error.not_bool",
    "leave.error.below_min",
    "leave.error.above_max",
    "leave.error.peak_below_sustained",
    // signals
    "leave.signal.autovacuum",
    "leave.signal.main_db",
    "leave.signal.fan_out",
    "leave.signal.replay",
    "leave.signal.thousands",
    "leave.status.met",
    "leave.status.not_met",
    "leave.autovacuum.met.long_tx",
    "leave.autovacuum.met.rate",
    "leave.autovacuum.not_met.tune",
    "leave.autovacuum.not_met",
    "leave.main_db.met",
    "leave.main_db.not_met.light_load",
    "leave.main_db.not_met.small_queue",
    "leave.fan_out.met",
    "leave.fan_out.not_met.two",
    "leave.fan_out.not_met.single",
    "leave.replay.met",
    "leave.replay.not_met",
    "leave.thousands.met",
    "leave.thousands.not_met.peak_only",
    "leave.thousands.not_met",
    // notes
    "leave.note.in_flight",
    "leave.note.latency.notify",
    "leave.note.latency.poll",
    "leave.note.lease.heartbeat",
    "leave.note.ordering.strict",
    // dead tuples
    "leave.dead.per_job",
    "leave.dead.created",
    "leave.dead.pinned",
    "leave.dead.default",
    "leave.dead.tuned",
    "leave.dead.lab_reference",
    "leave.dead.model",
    // recommendation and fixes
    "leave.rec.stay",
    "leave.rec.stay.why",
    "leave.rec.own_postgres",
    "leave.rec.own_postgres.why",
    "leave.rec.log",
    "leave.rec.log.why",
    "leave.rec.managed_queue",
    "leave.rec.managed_queue.why",
    "leave.fix.end_long_tx",
    "leave.fix.tune_autovacuum",
    "leave.fix.outbox",
    // interface
    "leave.interface.intro",
    "leave.interface.enqueue",
    "leave.interface.dequeue",
    "leave.interface.ack",
    "leave.interface.fail",
    // reference figures
    "leave.ref.graphile_worker",
    "leave.ref.river",
    "leave.ref.hatchet",
    "leave.ref.sqs_fifo",
    "leave.ref.sqs_fifo_batched",
    "leave.ref.sqs_fifo_high_throughput",
    "leave.ref.solid_queue",
    // links
    "leave.link.vacuum",
    "leave.link.pgq",
];

#[cfg(test)]
mod tests {
    use super::*;

    const TSV: &str = include_str!("../../../assets/i18n/leave.tsv");

    fn ok(w: &Workload) -> Verdict {
        match advise(w) {
            Ok(verdict) => verdict,
            Err(errors) => panic!("workload refused: {errors:?}"),
        }
    }

    fn at_rate(jobs: f64) -> Workload {
        Workload {
            sustained_jobs_per_s: jobs,
            peak_jobs_per_s: jobs,
            ..Workload::default()
        }
    }

    fn reason_key(w: &Workload, kind: SignalKind) -> &'static str {
        ok(w).signal(kind).reason.key
    }

    fn just_below(x: f64) -> f64 {
        x * (1.0 - 1e-9)
    }

    fn just_above(x: f64) -> f64 {
        x * (1.0 + 1e-9)
    }

    // --- the three worked cases of §8 ------------------------------------------------

    #[test]
    fn side_project_at_5_jobs_per_s_meets_no_signal_and_stays_on_one_postgres() {
        let w = Workload::default();
        assert_eq!(w.sustained_jobs_per_s, 5.0);
        let v = ok(&w);
        for signal in &v.signals {
            assert!(!signal.met, "{:?} should not be met", signal.kind);
        }
        assert_eq!(v.recommendation, Recommendation::StayOnOnePostgres);
        assert!(v.driven_by.is_empty());
        assert!(v.fixes.is_empty());
        assert_eq!(v.dead_tuples.per_s, 10.0);
        assert!(v.dead_tuples.default.keeps_up);
    }

    #[test]
    fn planetscale_case_800_jobs_per_s_beside_analytics_with_long_transaction_moves_queue_to_own_postgres(
    ) {
        let w = Workload {
            sustained_jobs_per_s: 800.0,
            peak_jobs_per_s: 1_200.0,
            job_duration_s: 0.2,
            db_load_percent: 85.0,
            long_transactions: true,
            ..Workload::default()
        };
        let v = ok(&w);
        let autovacuum = v.signal(SignalKind::AutovacuumBehind);
        assert!(autovacuum.met);
        assert_eq!(autovacuum.reason.key, "leave.autovacuum.met.long_tx");
        assert_eq!(autovacuum.reason.arg("dead_per_s"), Some(1_600.0));
        assert!(v.is_met(SignalKind::QueueEatsMainDb));
        assert!(!v.is_met(SignalKind::FanOut));
        assert!(!v.is_met(SignalKind::Replay));
        assert!(!v.is_met(SignalKind::SustainedThousands));
        assert_eq!(v.recommendation, Recommendation::QueueOnOwnPostgres);
        assert_eq!(
            v.driven_by,
            vec![SignalKind::AutovacuumBehind, SignalKind::QueueEatsMainDb]
        );
        assert_eq!(v.fixes.first(), Some(&Fix::EndLongTransactions));
        assert!(v.fixes.contains(&Fix::TuneAutovacuum));
        assert!(v.dead_tuples.horizon_pinned);
        assert_eq!(v.dead_tuples.default.clears_per_s, 0.0);
        assert_eq!(v.dead_tuples.tuned.clears_per_s, 0.0);
    }

    #[test]
    fn five_teams_consuming_the_same_events_is_fan_out_and_recommends_a_log() {
        let w = Workload {
            sustained_jobs_per_s: 50.0,
            peak_jobs_per_s: 200.0,
            fan_out_consumers: 5.0,
            ..Workload::default()
        };
        let v = ok(&w);
        assert!(v.is_met(SignalKind::FanOut));
        assert_eq!(
            v.signal(SignalKind::FanOut).reason.arg("consumers"),
            Some(5.0)
        );
        assert_eq!(v.recommendation, Recommendation::Log);
        assert_eq!(v.driven_by, vec![SignalKind::FanOut]);
        assert!(v.fixes.contains(&Fix::PublishThroughOutbox));
        assert!(v
            .lab_links
            .iter()
            .any(|l| l.lab == "pgq" && l.query() == "consumers=5"));
    }

    // --- autovacuum falling behind ----------------------------------------------------

    #[test]
    fn autovacuum_signal_is_met_when_a_long_transaction_pins_the_horizon() {
        let mut w = at_rate(0.1);
        assert!(!ok(&w).is_met(SignalKind::AutovacuumBehind));
        w.long_transactions = true;
        let v = ok(&w);
        assert!(v.is_met(SignalKind::AutovacuumBehind));
        assert_eq!(v.dead_tuples.default.clears_per_s, 0.0);
        assert!(!v.dead_tuples.tuned.keeps_up);
    }

    #[test]
    fn long_transaction_with_no_jobs_leaves_nothing_to_clear_so_autovacuum_signal_is_unmet() {
        let w = Workload {
            long_transactions: true,
            ..at_rate(0.0)
        };
        let v = ok(&w);
        assert!(!v.is_met(SignalKind::AutovacuumBehind));
        assert!(!v.dead_tuples.horizon_pinned);
    }

    #[test]
    fn autovacuum_signal_is_met_just_above_the_tuned_ceiling_not_at_or_below_it() {
        let boundary = VacuumSettings::TUNED.clear_ceiling_per_s() / DEAD_VERSIONS_PER_JOB;
        assert!(boundary < 1_000_000.0, "the boundary must be a valid input");
        let below = reason_key(&at_rate(just_below(boundary)), SignalKind::AutovacuumBehind);
        let at = ok(&at_rate(boundary));
        let above = ok(&at_rate(just_above(boundary)));
        assert_eq!(below, "leave.autovacuum.not_met.tune");
        assert!(!at.is_met(SignalKind::AutovacuumBehind));
        assert!(at.dead_tuples.tuned.keeps_up);
        assert!(above.is_met(SignalKind::AutovacuumBehind));
        assert_eq!(
            above.signal(SignalKind::AutovacuumBehind).reason.key,
            "leave.autovacuum.met.rate"
        );
    }

    #[test]
    fn above_the_default_ceiling_autovacuum_advice_is_to_tune_not_to_leave() {
        let boundary = VacuumSettings::DEFAULT.clear_ceiling_per_s() / DEAD_VERSIONS_PER_JOB;
        assert_eq!(
            reason_key(&at_rate(just_below(boundary)), SignalKind::AutovacuumBehind),
            "leave.autovacuum.not_met"
        );
        assert_eq!(
            reason_key(&at_rate(boundary), SignalKind::AutovacuumBehind),
            "leave.autovacuum.not_met"
        );
        let above = ok(&at_rate(just_above(boundary)));
        assert!(!above.is_met(SignalKind::AutovacuumBehind));
        assert_eq!(
            above.signal(SignalKind::AutovacuumBehind).reason.key,
            "leave.autovacuum.not_met.tune"
        );
        assert!(above.fixes.contains(&Fix::TuneAutovacuum));
    }

    #[test]
    fn model_ceilings_are_rounded_to_two_figures_and_tuning_multiplies_them_by_ten() {
        // 100,000 cost units/s over ~0.645 units per dead version: ~155k, shown as 160k
        // dead versions/s (80k jobs/s); tuned: ten times that.
        let default = VacuumSettings::DEFAULT.clear_ceiling_per_s();
        let tuned = VacuumSettings::TUNED.clear_ceiling_per_s();
        assert_eq!(default, 160_000.0);
        assert_eq!(tuned, 1_600_000.0);
        assert!(
            default / DEAD_VERSIONS_PER_JOB > REFERENCES[1].low_per_s,
            "above River's 46k"
        );
        assert_eq!(VacuumSettings::DEFAULT.cost_budget_per_s(), 100_000.0);
    }

    #[test]
    fn every_job_leaves_two_dead_versions_claim_and_completion() {
        let v = ok(&at_rate(123.0));
        assert_eq!(v.dead_tuples.dead_per_job, 2.0);
        assert_eq!(v.dead_tuples.per_s, 246.0);
        assert_eq!(v.dead_tuples.per_s_at_peak, 246.0);
        let peaky = Workload {
            peak_jobs_per_s: 500.0,
            ..at_rate(123.0)
        };
        assert_eq!(ok(&peaky).dead_tuples.per_s_at_peak, 1_000.0);
    }

    #[test]
    fn dead_versions_before_a_pass_are_trigger_plus_one_naptime_of_dead_versions() {
        // 800 jobs/s, 0.2 s jobs, 1 s latency target: 960 live rows by Little's law.
        let w = Workload {
            job_duration_s: 0.2,
            ..at_rate(800.0)
        };
        let d = ok(&w).dead_tuples;
        assert!((d.live_rows - 960.0).abs() < 1e-9);
        assert!((d.default.trigger_dead - (50.0 + 0.2 * 960.0)).abs() < 1e-9);
        assert!((d.default.dead_before_pass - (50.0 + 192.0 + 1_600.0 * 60.0)).abs() < 1e-6);
        assert!((d.tuned.dead_before_pass - (50.0 + 9.6 + 1_600.0 * 15.0)).abs() < 1e-6);
        assert!(d.tuned.dead_before_pass < d.default.dead_before_pass);
    }

    #[test]
    fn tune_autovacuum_fix_appears_once_default_settings_carry_more_than_20000_dead_versions() {
        let dead_before = |jobs: f64| DeadTuples::new(&at_rate(jobs)).default.dead_before_pass;
        // Find the rate where the default carries exactly BLOAT_WARNING_DEAD (linear in jobs).
        let slope = dead_before(1.0) - dead_before(0.0);
        let boundary = (BLOAT_WARNING_DEAD - dead_before(0.0)) / slope;
        let fixes = |jobs: f64| ok(&at_rate(jobs)).fixes;
        assert!(!fixes(boundary * (1.0 - 1e-6)).contains(&Fix::TuneAutovacuum));
        assert!(fixes(boundary * (1.0 + 1e-6)).contains(&Fix::TuneAutovacuum));
        // The boundary sits at about 166 jobs/s for the default workload's shape.
        assert!((160.0..170.0).contains(&boundary), "{boundary}");
    }

    // --- the queue eating the main database -------------------------------------------

    fn loaded(load: f64, jobs: f64) -> Workload {
        Workload {
            db_load_percent: load,
            ..at_rate(jobs)
        }
    }

    #[test]
    fn main_db_signal_is_met_from_70_percent_load_not_just_below() {
        assert!(!ok(&loaded(69.99, 800.0)).is_met(SignalKind::QueueEatsMainDb));
        assert_eq!(
            reason_key(&loaded(69.99, 800.0), SignalKind::QueueEatsMainDb),
            "leave.main_db.not_met.light_load"
        );
        assert!(ok(&loaded(70.0, 800.0)).is_met(SignalKind::QueueEatsMainDb));
        assert!(ok(&loaded(70.01, 800.0)).is_met(SignalKind::QueueEatsMainDb));
    }

    #[test]
    fn main_db_signal_needs_at_least_100_jobs_per_s_on_a_loaded_database() {
        assert_eq!(
            reason_key(&loaded(85.0, 99.99), SignalKind::QueueEatsMainDb),
            "leave.main_db.not_met.small_queue"
        );
        let at = ok(&loaded(85.0, 100.0));
        assert!(at.is_met(SignalKind::QueueEatsMainDb));
        assert_eq!(
            at.signal(SignalKind::QueueEatsMainDb)
                .reason
                .arg("writes_per_s"),
            Some(300.0)
        );
        assert!(ok(&loaded(85.0, 100.01)).is_met(SignalKind::QueueEatsMainDb));
    }

    #[test]
    fn main_db_signal_alone_recommends_the_queue_own_postgres_instance() {
        let v = ok(&loaded(90.0, 300.0));
        assert_eq!(v.recommendation, Recommendation::QueueOnOwnPostgres);
        assert_eq!(v.driven_by, vec![SignalKind::QueueEatsMainDb]);
    }

    // --- fan-out --------------------------------------------------------------------------

    fn consumers(n: f64) -> Workload {
        Workload {
            fan_out_consumers: n,
            ..Workload::default()
        }
    }

    #[test]
    fn fan_out_is_met_from_three_consumers_not_at_two() {
        assert_eq!(
            reason_key(&consumers(1.0), SignalKind::FanOut),
            "leave.fan_out.not_met.single"
        );
        assert_eq!(
            reason_key(&consumers(2.0), SignalKind::FanOut),
            "leave.fan_out.not_met.two"
        );
        assert!(!ok(&consumers(2.0)).is_met(SignalKind::FanOut));
        assert!(ok(&consumers(3.0)).is_met(SignalKind::FanOut));
        assert!(ok(&consumers(4.0)).is_met(SignalKind::FanOut));
        assert_eq!(
            ok(&consumers(2.0)).recommendation,
            Recommendation::StayOnOnePostgres
        );
        assert_eq!(ok(&consumers(3.0)).recommendation, Recommendation::Log);
    }

    // --- replay ---------------------------------------------------------------------------

    #[test]
    fn replay_need_is_met_only_when_asked_and_recommends_a_log() {
        assert!(!ok(&Workload::default()).is_met(SignalKind::Replay));
        let w = Workload {
            replay_needed: true,
            ..Workload::default()
        };
        let v = ok(&w);
        assert!(v.is_met(SignalKind::Replay));
        assert_eq!(v.recommendation, Recommendation::Log);
        assert_eq!(v.driven_by, vec![SignalKind::Replay]);
    }

    // --- sustained thousands per second ----------------------------------------------------

    #[test]
    fn thousands_signal_is_met_from_1000_sustained_jobs_per_s_not_just_below() {
        assert!(!ok(&at_rate(999.99)).is_met(SignalKind::SustainedThousands));
        let at = ok(&at_rate(1_000.0));
        assert!(at.is_met(SignalKind::SustainedThousands));
        assert_eq!(
            at.signal(SignalKind::SustainedThousands)
                .reason
                .arg("jobs_per_day"),
            Some(86_400_000.0)
        );
        assert!(ok(&at_rate(1_000.01)).is_met(SignalKind::SustainedThousands));
        assert_eq!(at.recommendation, Recommendation::ManagedQueue);
    }

    #[test]
    fn peaks_of_thousands_alone_do_not_meet_the_sustained_signal() {
        let peak = |p: f64| Workload {
            peak_jobs_per_s: p,
            ..at_rate(500.0)
        };
        assert_eq!(
            reason_key(&peak(999.99), SignalKind::SustainedThousands),
            "leave.thousands.not_met"
        );
        assert_eq!(
            reason_key(&peak(1_000.0), SignalKind::SustainedThousands),
            "leave.thousands.not_met.peak_only"
        );
        assert!(!ok(&peak(5_000.0)).is_met(SignalKind::SustainedThousands));
    }

    #[test]
    fn fan_out_outranks_thousands_because_a_log_also_carries_the_rate() {
        let w = Workload {
            fan_out_consumers: 5.0,
            ..at_rate(5_000.0)
        };
        let v = ok(&w);
        assert_eq!(v.recommendation, Recommendation::Log);
        assert!(v.is_met(SignalKind::SustainedThousands));
    }

    // --- notes ------------------------------------------------------------------------------

    fn has_note(w: &Workload, key: &str) -> bool {
        ok(w).notes.iter().any(|n| n.key == key)
    }

    #[test]
    fn latency_below_one_second_asks_for_listen_notify_from_one_second_polling_does() {
        let latency = |ms: f64| Workload {
            latency_target_ms: ms,
            ..Workload::default()
        };
        assert!(has_note(&latency(999.99), "leave.note.latency.notify"));
        assert!(has_note(&latency(1_000.0), "leave.note.latency.poll"));
        assert!(has_note(&latency(1_000.01), "leave.note.latency.poll"));
    }

    #[test]
    fn jobs_of_30_seconds_or_more_get_the_heartbeat_note() {
        let duration = |s: f64| Workload {
            job_duration_s: s,
            ..Workload::default()
        };
        assert!(!has_note(&duration(29.99), "leave.note.lease.heartbeat"));
        assert!(has_note(&duration(30.0), "leave.note.lease.heartbeat"));
        assert!(has_note(&duration(30.01), "leave.note.lease.heartbeat"));
    }

    #[test]
    fn strict_ordering_is_a_note_not_a_leave_signal() {
        let w = Workload {
            strict_ordering: true,
            ..Workload::default()
        };
        let v = ok(&w);
        assert!(v
            .notes
            .iter()
            .any(|n| n.key == "leave.note.ordering.strict"));
        assert!(v.signals.iter().all(|s| !s.met));
        assert_eq!(v.recommendation, Recommendation::StayOnOnePostgres);
        assert!(!has_note(
            &Workload::default(),
            "leave.note.ordering.strict"
        ));
    }

    #[test]
    fn jobs_in_flight_follow_littles_law() {
        let w = Workload {
            job_duration_s: 2.0,
            peak_jobs_per_s: 300.0,
            ..at_rate(100.0)
        };
        let note = ok(&w)
            .notes
            .into_iter()
            .find(|n| n.key == "leave.note.in_flight");
        let note = note.expect("in-flight note");
        assert_eq!(note.arg("in_flight"), Some(200.0));
        assert_eq!(note.arg("in_flight_peak"), Some(600.0));
    }

    #[test]
    fn verdict_lists_five_signals_in_article_order_and_the_four_interface_ops() {
        let v = ok(&Workload::default());
        let kinds: Vec<_> = v.signals.iter().map(|s| s.kind).collect();
        assert_eq!(kinds, SignalKind::ALL.to_vec());
        let ops: Vec<_> = v.interface.iter().map(|o| o.op).collect();
        assert_eq!(ops, ["enqueue", "dequeue", "ack", "fail"]);
    }

    #[test]
    fn reference_figures_are_the_article_numbers() {
        let figure = |id: &str| {
            *REFERENCES
                .iter()
                .find(|r| r.id == id)
                .expect("reference figure")
        };
        assert_eq!(figure("graphile_worker").low_per_s, 180_000.0);
        assert_eq!(figure("river").low_per_s, 46_000.0);
        assert_eq!(figure("hatchet").low_per_s, 10_000.0);
        assert_eq!(figure("sqs_fifo").low_per_s, 300.0);
        assert_eq!(figure("sqs_fifo_batched").low_per_s, 3_000.0);
        let high = figure("sqs_fifo_high_throughput");
        assert_eq!((high.low_per_s, high.high_per_s), (9_000.0, 70_000.0));
        let solid = figure("solid_queue");
        assert!(!solid.on_postgres, "Solid Queue's 20M/day is on MySQL");
        assert!((solid.low_per_s * 86_400.0 - 20_000_000.0).abs() < 1e-6);
    }

    // --- validation -------------------------------------------------------------------------

    /// A workload where every input is valid, with room for either rate to move.
    fn roomy() -> Workload {
        Workload {
            sustained_jobs_per_s: 0.0,
            peak_jobs_per_s: 1_000_000.0,
            ..Workload::default()
        }
    }

    fn errors_for(field: Field, value: f64) -> Vec<FieldError> {
        let mut w = roomy();
        if let Some(slot) = w.number_mut(field) {
            *slot = value;
        }
        w.validate().err().unwrap_or_default()
    }

    /// Proves the field accepts both ends, refuses just past each with the bound, and
    /// refuses NaN and infinity.
    fn assert_range_enforced(field: Field, min: f64, max: f64, step: f64) {
        let bounds = field.bounds().expect("numeric field");
        assert_eq!((bounds.min, bounds.max), (min, max), "{field:?}");
        assert!(errors_for(field, min).is_empty(), "{field:?} at min");
        assert!(errors_for(field, max).is_empty(), "{field:?} at max");
        let below = errors_for(field, min - step);
        assert_eq!(
            below,
            vec![FieldError {
                field,
                key: "leave.error.below_min",
                bound: Some(min)
            }]
        );
        let above = errors_for(field, max + step);
        assert_eq!(
            above,
            vec![FieldError {
                field,
                key: "leave.error.above_max",
                bound: Some(max)
            }]
        );
        for bad in [f64::NAN, f64::INFINITY] {
            let errors = errors_for(field, bad);
            assert_eq!(errors.len(), 1, "{field:?} {bad}");
            assert_eq!(errors[0].key, "leave.error.not_a_number");
        }
    }

    #[test]
    fn sustained_rate_is_refused_outside_0_to_1_million_jobs_per_s() {
        assert_range_enforced(Field::SustainedJobsPerS, 0.0, 1_000_000.0, 0.01);
    }

    #[test]
    fn peak_rate_is_refused_outside_0_to_1_million_jobs_per_s() {
        let mut w = roomy();
        w.peak_jobs_per_s = 0.0;
        assert!(w.validate().is_ok());
        assert_range_enforced(Field::PeakJobsPerS, 0.0, 1_000_000.0, 0.01);
    }

    #[test]
    fn peak_below_sustained_is_refused_with_the_sustained_rate_as_bound() {
        let w = Workload {
            sustained_jobs_per_s: 100.0,
            peak_jobs_per_s: 99.0,
            ..Workload::default()
        };
        let errors = w.validate().expect_err("peak below sustained");
        assert_eq!(
            errors,
            vec![FieldError {
                field: Field::PeakJobsPerS,
                key: "leave.error.peak_below_sustained",
                bound: Some(100.0)
            }]
        );
        assert_eq!(errors[0].msg().arg("sustained"), Some(100.0));
        assert!(
            at_rate(100.0).validate().is_ok(),
            "peak equal to sustained is fine"
        );
    }

    #[test]
    fn job_duration_is_refused_outside_1_ms_to_1_day() {
        assert_range_enforced(Field::JobDurationS, 0.001, 86_400.0, 0.0005);
    }

    #[test]
    fn fan_out_is_refused_outside_1_to_100_consumers_and_when_not_whole() {
        assert_range_enforced(Field::FanOutConsumers, 1.0, 100.0, 1.0);
        let errors = errors_for(Field::FanOutConsumers, 2.5);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].key, "leave.error.not_whole");
    }

    #[test]
    fn latency_target_is_refused_outside_1_ms_to_1_hour() {
        assert_range_enforced(Field::LatencyTargetMs, 1.0, 3_600_000.0, 0.5);
    }

    #[test]
    fn database_load_is_refused_outside_0_to_100_percent() {
        assert_range_enforced(Field::DbLoadPercent, 0.0, 100.0, 0.1);
    }

    #[test]
    fn yes_no_inputs_refuse_anything_but_yes_or_no() {
        for field in [
            Field::ReplayNeeded,
            Field::StrictOrdering,
            Field::LongTransactions,
        ] {
            let mut w = Workload::default();
            let error = w.set_from_str(field, "maybe").expect_err("not a flag");
            assert_eq!(error.key, "leave.error.not_bool");
            assert_eq!(error.field, field);
            for yes in ["1", "true", "yes", "on", "TRUE"] {
                w.set_from_str(field, yes).expect("yes");
                assert_eq!(w.flag(field), Some(true));
            }
            for no in ["0", "false", "no", "off"] {
                w.set_from_str(field, no).expect("no");
                assert_eq!(w.flag(field), Some(false));
            }
        }
    }

    #[test]
    fn typed_text_that_is_not_a_number_is_refused_per_field() {
        for field in Field::ALL.into_iter().filter(|f| !f.is_flag()) {
            let mut w = Workload::default();
            for bad in ["", "abc", "1,5", "NaN", "inf"] {
                let error = w.set_from_str(field, bad).expect_err("not a number");
                assert_eq!(
                    (error.field, error.key),
                    (field, "leave.error.not_a_number")
                );
            }
        }
    }

    #[test]
    fn advise_refuses_an_invalid_workload_with_every_error() {
        let w = Workload {
            sustained_jobs_per_s: -1.0,
            db_load_percent: 101.0,
            fan_out_consumers: 0.0,
            ..Workload::default()
        };
        let errors = advise(&w).expect_err("invalid");
        let fields: Vec<_> = errors.iter().map(|e| e.field).collect();
        assert_eq!(
            fields,
            vec![
                Field::SustainedJobsPerS,
                Field::FanOutConsumers,
                Field::DbLoadPercent
            ]
        );
        assert_eq!(errors[0].msg().arg("min"), Some(0.0));
        assert_eq!(errors[2].msg().arg("max"), Some(100.0));
    }

    #[test]
    fn load_bands_split_at_40_and_70_percent() {
        assert_eq!(LoadBand::from_percent(39.99), LoadBand::Low);
        assert_eq!(LoadBand::from_percent(40.0), LoadBand::Medium);
        assert_eq!(LoadBand::from_percent(69.99), LoadBand::Medium);
        assert_eq!(LoadBand::from_percent(70.0), LoadBand::High);
        for band in [LoadBand::Low, LoadBand::Medium, LoadBand::High] {
            assert_eq!(LoadBand::from_percent(band.typical_percent()), band);
        }
    }

    // --- URL query --------------------------------------------------------------------------

    #[test]
    fn query_string_round_trips_the_default_workload() {
        let w = Workload::default();
        let q = w.to_query();
        assert_eq!(
            q,
            "sustained=5&peak=20&duration=0.5&fanout=1&replay=0&ordering=0&latency=1000&load=20&longtx=0"
        );
        assert_eq!(Workload::from_query(&q), Ok(w));
    }

    #[test]
    fn query_string_round_trips_awkward_numbers_and_every_flag_exactly() {
        let w = Workload {
            sustained_jobs_per_s: 0.1 + 0.2,
            peak_jobs_per_s: 1_000_000.0,
            job_duration_s: 0.001,
            fan_out_consumers: 100.0,
            replay_needed: true,
            strict_ordering: true,
            latency_target_ms: 123_456.789,
            db_load_percent: 33.333_333_333_333_336,
            long_transactions: true,
        };
        let q = w.to_query();
        assert!(q.contains("replay=1&ordering=1"), "{q}");
        assert!(q.ends_with("longtx=1"), "{q}");
        assert_eq!(Workload::from_query(&q), Ok(w));
    }

    #[test]
    fn query_string_is_read_from_a_hash_route_ignoring_unknown_keys() {
        let w = Workload::from_query(
            "https://example.org/docs/queue-lab/?lang=ko#/leave?lab=leave&embed=1&sustained=800&peak=1200&longtx=1&load=high",
        )
        .expect("valid");
        assert_eq!(w.sustained_jobs_per_s, 800.0);
        assert_eq!(w.peak_jobs_per_s, 1_200.0);
        assert!(w.long_transactions);
        assert_eq!(w.db_load_percent, LoadBand::High.typical_percent());
        assert_eq!(w.job_duration_s, Workload::default().job_duration_s);
    }

    #[test]
    fn empty_query_gives_the_default_workload() {
        assert_eq!(Workload::from_query(""), Ok(Workload::default()));
        assert_eq!(Workload::from_query("?"), Ok(Workload::default()));
        assert_eq!(
            Workload::from_query("?sustained=7#step-2").map(|w| w.sustained_jobs_per_s),
            Ok(7.0)
        );
    }

    #[test]
    fn query_string_reports_bad_and_out_of_range_values_by_field() {
        let errors = Workload::from_query("sustained=abc&load=150&replay=maybe&fanout=2.5")
            .expect_err("invalid");
        let found: Vec<_> = errors.iter().map(|e| (e.field, e.key)).collect();
        assert_eq!(
            found,
            vec![
                (Field::SustainedJobsPerS, "leave.error.not_a_number"),
                (Field::FanOutConsumers, "leave.error.not_whole"),
                (Field::ReplayNeeded, "leave.error.not_bool"),
                (Field::DbLoadPercent, "leave.error.above_max"),
            ]
        );
    }

    #[test]
    fn a_repeated_query_key_takes_its_last_value() {
        let w = Workload::from_query("sustained=abc&sustained=9&peak=9").expect("last wins");
        assert_eq!(w.sustained_jobs_per_s, 9.0);
    }

    // --- messages -------------------------------------------------------------------------------

    #[test]
    fn numbers_are_formatted_with_thousands_separators_and_few_decimals() {
        assert_eq!(format_number(0.0), "0");
        assert_eq!(format_number(0.5), "0.5");
        assert_eq!(format_number(2.0), "2");
        assert_eq!(format_number(9.876), "9.88");
        assert_eq!(format_number(12.34), "12.3");
        assert_eq!(format_number(231.48), "231");
        assert_eq!(format_number(1_600.0), "1,600");
        assert_eq!(format_number(86_400_000.0), "86,400,000");
        assert_eq!(format_number(-1_234.5), "-1,235");
        assert_eq!(format_number(f64::NAN), "–");
    }

    #[test]
    fn fill_replaces_named_placeholders_and_leaves_unknown_ones() {
        let msg = Msg::new("x").with("n", 1_600.0).with("load", 85.0);
        assert_eq!(
            fill("{n} dead/s at {load}% {other} {", &msg),
            "1,600 dead/s at 85% {other} {"
        );
    }

    fn tsv() -> Vec<(&'static str, &'static str, &'static str)> {
        TSV.lines()
            .filter(|line| !line.is_empty())
            .map(|line| {
                let parts: Vec<&str> = line.split('\t').collect();
                assert_eq!(parts.len(), 3, "three columns: {line}");
                (parts[0], parts[1], parts[2])
            })
            .collect()
    }

    #[test]
    fn translation_file_has_exactly_the_message_keys_each_in_english_and_korean() {
        let rows = tsv();
        let mut keys: Vec<&str> = rows.iter().map(|r| r.0).collect();
        for (key, en, ko) in &rows {
            assert!(!en.trim().is_empty(), "{key} has English");
            assert!(!ko.trim().is_empty(), "{key} has Korean");
            assert!(key.starts_with("leave."), "{key}");
        }
        let count = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), count, "no duplicate keys");
        let mut expected: Vec<&str> = MESSAGE_KEYS.to_vec();
        expected.sort_unstable();
        assert_eq!(keys, expected);
    }

    /// Every message the advisor can produce, over workloads that reach every branch.
    fn every_emitted_message() -> Vec<Msg> {
        let tuned_edge = VacuumSettings::TUNED.clear_ceiling_per_s() / 2.0;
        let default_edge = VacuumSettings::DEFAULT.clear_ceiling_per_s() / 2.0;
        let workloads = [
            Workload::default(),
            Workload {
                db_load_percent: 85.0,
                long_transactions: true,
                ..at_rate(800.0)
            },
            loaded(85.0, 50.0),
            consumers(5.0),
            consumers(2.0),
            Workload {
                replay_needed: true,
                strict_ordering: true,
                latency_target_ms: 50.0,
                job_duration_s: 60.0,
                ..Workload::default()
            },
            at_rate(5_000.0),
            Workload {
                peak_jobs_per_s: 2_000.0,
                ..at_rate(500.0)
            },
            at_rate(just_above(default_edge)),
            at_rate(just_above(tuned_edge)),
        ];
        let mut msgs = Vec::new();
        for w in &workloads {
            let v = ok(w);
            msgs.extend(v.signals.iter().map(|s| s.reason.clone()));
            msgs.extend(v.signals.iter().map(|s| Msg::new(s.status_key())));
            msgs.extend(v.notes.iter().cloned());
            msgs.extend(v.dead_tuples.summary());
            msgs.push(Msg::new(v.recommendation.key()));
            msgs.push(Msg::new(v.recommendation.why_key()));
            msgs.extend(v.fixes.iter().map(|f| Msg::new(f.key())));
            msgs.extend(v.lab_links.iter().map(|l| Msg::new(l.reason_key)));
        }
        msgs.extend(SignalKind::ALL.iter().map(|k| Msg::new(k.title_key())));
        msgs.push(Msg::new(INTERFACE_INTRO_KEY));
        msgs.extend(INTERFACE.iter().map(|op| Msg::new(op.key)));
        msgs.extend(REFERENCES.iter().map(|r| r.msg()));
        for band in [LoadBand::Low, LoadBand::Medium, LoadBand::High] {
            msgs.push(Msg::new(band.key()));
        }
        for field in Field::ALL {
            msgs.push(Msg::new(field.label_key()));
            msgs.push(Msg::new(field.help_key()));
            msgs.extend(field.unit_key().map(Msg::new));
        }
        let mut errors = Vec::new();
        errors.extend(Workload::from_query("sustained=x&fanout=1.5&replay=x").unwrap_err());
        errors.extend(Workload::from_query("sustained=-1&load=101").unwrap_err());
        errors.extend(Workload::from_query("sustained=9&peak=8").unwrap_err());
        msgs.extend(errors.iter().map(FieldError::msg));
        msgs
    }

    #[test]
    fn every_emitted_message_has_a_translation_whose_placeholders_it_fills() {
        let rows = tsv();
        for msg in every_emitted_message() {
            let row = rows.iter().find(|r| r.0 == msg.key);
            let (_, en, ko) = row.unwrap_or_else(|| panic!("{} is in leave.tsv", msg.key));
            for template in [en, ko] {
                let text = fill(template, &msg);
                assert!(
                    !text.contains('{'),
                    "{}: unfilled placeholder in {text}",
                    msg.key
                );
            }
        }
    }

    #[test]
    fn every_message_key_is_reachable_so_none_is_dead() {
        let emitted: Vec<&str> = every_emitted_message().iter().map(|m| m.key).collect();
        for key in MESSAGE_KEYS {
            assert!(emitted.contains(key), "{key} is never emitted");
        }
    }
}
