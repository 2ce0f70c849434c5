//! The advisor's sentences: [`Msg`] (a `leave.` key and its named numbers), how numbers are
//! formatted and filled into a translated template, and [`MESSAGE_KEYS`], every key the
//! advisor uses (`assets/i18n/leave.tsv` has exactly these).

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
        crate::format::group(magnitude.round() as i64)
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
