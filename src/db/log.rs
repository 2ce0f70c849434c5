//! The SQL log: every statement the labs run, with rows and time, for learners to read.

use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub sql: String,
    /// Bound parameters as the log shows them ($1 first).
    pub params: Vec<String>,
    /// The same parameters as psql literals ([`super::Param::literal`]), for "the lab as a
    /// script".
    pub literals: Vec<String>,
    /// Rows returned (None for statements that return no result set, and on error).
    pub rows: Option<u64>,
    /// Rows inserted, updated or deleted.
    pub affected: Option<u64>,
    pub ms: f64,
    pub error: Option<String>,
}

/// The page's copy of the log (the SQL log panel reads it): newest entries first, each
/// numbered; shared, so a new entry copies pointers, not SQL.
pub type LogEntries = RwSignal<Vec<(u64, Arc<LogEntry>)>>;

/// Entries the page keeps.
const KEEP: usize = 200;

/// Collects a database's log into the page's one log signal (each new database once).
pub fn collect(db: &super::Db, entries: LogEntries) {
    db.log().subscribe(move |e| {
        entries.update(|v| {
            // Numbered on from the newest kept entry, so a restarted database's entries never
            // share a key with the last one's.
            let n = v.first().map_or(1, |(k, _)| k + 1);
            v.insert(0, (n, Arc::new(e.clone())));
            v.truncate(KEEP);
        });
    });
}

type Subscriber = Box<dyn Fn(&LogEntry)>;

/// Statements a lab's script keeps at most; past that the lab's script is refused (a long
/// L3 run is tens of thousands of statements).
pub const SCRIPT_KEEP: usize = 20_000;

/// One step of a lab's script: a statement it ran, or the runner entering the lab (its
/// search path set again, unlogged).
#[derive(Clone, Debug)]
pub enum ScriptStep {
    Enter,
    Ran(LogEntry),
}

/// Every statement each lab ran since the database opened (or the last Reset database), in
/// order: "the lab as a script" (src/ui/export.rs).
#[derive(Default)]
struct Scripts {
    /// The lab (its slug) whose work runs now, as the runner says.
    scope: Option<&'static str>,
    steps: std::collections::HashMap<&'static str, Vec<ScriptStep>>,
    /// Labs whose script went past [`SCRIPT_KEEP`].
    overflow: std::collections::HashSet<&'static str>,
}

impl Scripts {
    fn push(&mut self, lab: &'static str, step: ScriptStep) {
        if self.overflow.contains(lab) {
            return;
        }
        let steps = self.steps.entry(lab).or_default();
        if steps.len() >= SCRIPT_KEEP {
            self.overflow.insert(lab);
            steps.clear();
        } else {
            steps.push(step);
        }
    }
}

/// Shared by all clones of a `Db`. Views subscribe to be told of each new entry.
#[derive(Clone, Default)]
pub struct SqlLog {
    subscribers: Rc<RefCell<Vec<Subscriber>>>,
    count: Rc<RefCell<u64>>,
    /// The newest statement's own time in the worker (its entry's `ms`).
    last_ms: Rc<std::cell::Cell<f64>>,
    /// Entries recorded while a `LogHold` is alive, told to subscribers when the last ends.
    held: Rc<RefCell<(u32, Vec<LogEntry>)>>,
    scripts: Rc<RefCell<Scripts>>,
}

/// Holds the log's subscribers back until dropped; see `SqlLog::hold`.
#[must_use = "the log is held only while this lives"]
pub struct LogHold {
    log: SqlLog,
}

impl SqlLog {
    pub fn subscribe(&self, f: impl Fn(&LogEntry) + 'static) {
        self.subscribers.borrow_mut().push(Box::new(f));
    }

    /// How many statements have run since the database opened.
    pub fn count(&self) -> u64 {
        *self.count.borrow()
    }

    /// The newest statement's own time, in ms: what PostgreSQL spent on it, leaving out its
    /// wait behind earlier statements and the page's wait to read the reply (a render).
    pub fn last_ms(&self) -> f64 {
        self.last_ms.get()
    }

    /// While the returned guard lives, new entries are kept back and then told to the
    /// subscribers together, in order. A lab holds the log for one action, so the page
    /// renders once when the action is done rather than once per statement (a render of
    /// the lab between two statements delays the second one's reply).
    pub fn hold(&self) -> LogHold {
        self.held.borrow_mut().0 += 1;
        LogHold { log: self.clone() }
    }

    /// The runner starts a piece of work of `lab` (None: the console off a lab, Reset):
    /// statements recorded from now on belong to its script.
    pub fn enter(&self, lab: Option<&'static str>) {
        let mut scripts = self.scripts.borrow_mut();
        scripts.scope = lab;
        if let Some(lab) = lab {
            scripts.push(lab, ScriptStep::Enter);
        }
    }

    /// Forgets every lab's script (Reset database: each lab sets itself up again).
    pub fn forget_scripts(&self) {
        let mut scripts = self.scripts.borrow_mut();
        scripts.steps.clear();
        scripts.overflow.clear();
    }

    /// `lab`'s script so far, or None when it went past [`SCRIPT_KEEP`] statements.
    pub fn script(&self, lab: &str) -> Option<Vec<ScriptStep>> {
        let scripts = self.scripts.borrow();
        if scripts.overflow.contains(lab) {
            return None;
        }
        Some(scripts.steps.get(lab).cloned().unwrap_or_default())
    }

    pub(crate) fn record(&self, entry: LogEntry) {
        *self.count.borrow_mut() += 1;
        self.last_ms.set(entry.ms);
        {
            let mut scripts = self.scripts.borrow_mut();
            if let Some(lab) = scripts.scope {
                scripts.push(lab, ScriptStep::Ran(entry.clone()));
            }
        }
        {
            let mut held = self.held.borrow_mut();
            if held.0 > 0 {
                held.1.push(entry);
                return;
            }
        }
        self.tell(&entry);
    }

    fn tell(&self, entry: &LogEntry) {
        for s in self.subscribers.borrow().iter() {
            s(entry);
        }
    }
}

impl Drop for LogHold {
    fn drop(&mut self) {
        let pending = {
            let mut held = self.log.held.borrow_mut();
            held.0 -= 1;
            if held.0 > 0 {
                return;
            }
            std::mem::take(&mut held.1)
        };
        for entry in &pending {
            self.log.tell(entry);
        }
    }
}

/// Milliseconds from a monotonic clock (the page's `performance.now()`).
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}
