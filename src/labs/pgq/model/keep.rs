//! L4's state beside the database, for a saved lab (`src/ui/keep.rs`): the batches each
//! consumer and subconsumer holds and has not acked, the nacks in them, the prepared
//! in-flight transaction's event, maint()'s last answer, the killed
//! subconsumers, and the actions taken (as the share text). The queue itself, its batches,
//! cursors and the prepared transaction are in the saved data directory.

use super::{Event, Lab, MaintRow};
use crate::descriptor::LabId;
use crate::labs::pgq::ID;
use crate::ui::keep::{Keeper, Kept};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize)]
struct Saved {
    batches: BTreeMap<String, Vec<Event>>,
    nacked: BTreeMap<String, Vec<(i64, String)>>,
    inflight: Option<i64>,
    last_maint: Vec<MaintRow>,
    sent: i64,
    history: String,
    /// (consumer, subconsumer) and its batch.
    parts: Vec<((String, String), Vec<Event>)>,
    killed: Vec<(String, String)>,
}

/// What a saved lab's file needs of this lab (`ui::keep`), in the lab's own code.
pub const KEEPER: Keeper = Keeper::of::<Lab>();

impl Kept for Lab {
    const LAB: LabId = ID;

    /// The state a saved lab keeps beside its data directory.
    fn saved_state(&self) -> serde_json::Value {
        let saved = Saved {
            batches: self.batches.clone(),
            nacked: self.nacked.clone(),
            inflight: self.inflight,
            last_maint: self.last_maint.clone(),
            sent: self.sent,
            history: crate::labs::pgq::share::encode(&self.history),
            parts: self
                .parts
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            killed: self.killed.iter().cloned().collect(),
        };
        serde_json::to_value(saved).unwrap_or(serde_json::Value::Null)
    }

    /// The lab as [`Kept::saved_state`] kept it; `None` when `state` is not such a state. It
    /// holds no session of its own (no LISTEN), so it needs nothing more on the reopened
    /// database.
    fn parse_state(state: &serde_json::Value) -> Option<Lab> {
        // From its text, not `from_value`: serde_json's Value deserializer, made again for
        // every type read, was 46 KB of the app's .wasm (before wasm-opt).
        let s: Saved = serde_json::from_str(&state.to_string()).ok()?;
        Some(Lab {
            batches: s.batches,
            nacked: s.nacked,
            inflight: s.inflight,
            last_maint: s.last_maint,
            sent: s.sent,
            history: crate::labs::pgq::share::decode(&s.history).ok()?,
            parts: s.parts.into_iter().collect(),
            killed: s.killed.into_iter().collect(),
        })
    }
}
