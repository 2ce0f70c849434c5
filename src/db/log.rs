//! The SQL log: every statement the labs run, with rows and time, for learners to read.

use std::cell::RefCell;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    pub sql: String,
    /// Bound parameters as the log shows them ($1 first).
    pub params: Vec<String>,
    /// Rows returned (None for statements that return no result set, and on error).
    pub rows: Option<u64>,
    /// Rows inserted, updated or deleted.
    pub affected: Option<u64>,
    pub ms: f64,
    pub error: Option<String>,
}

type Subscriber = Box<dyn Fn(&LogEntry)>;

/// Shared by all clones of a `Db`. Views subscribe to be told of each new entry.
#[derive(Clone, Default)]
pub struct SqlLog {
    subscribers: Rc<RefCell<Vec<Subscriber>>>,
    count: Rc<RefCell<u64>>,
}

impl SqlLog {
    pub fn subscribe(&self, f: impl Fn(&LogEntry) + 'static) {
        self.subscribers.borrow_mut().push(Box::new(f));
    }

    /// How many statements have run since the database opened.
    pub fn count(&self) -> u64 {
        *self.count.borrow()
    }

    pub(crate) fn record(&self, entry: LogEntry) {
        *self.count.borrow_mut() += 1;
        for s in self.subscribers.borrow().iter() {
            s(&entry);
        }
    }
}

/// Milliseconds from a monotonic clock (the page's `performance.now()`).
pub(crate) fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}
