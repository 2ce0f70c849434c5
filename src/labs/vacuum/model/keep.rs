//! L3's state beside the database, for a saved lab (`src/ui/keep.rs`): its results table,
//! the selected table, the VACUUM button's figures, the plan viewer's and the locks'
//! answers, and the actions taken (as the share text). The five tables, and the long
//! transaction (a prepared one), are in the saved data directory.

use super::{Lab, State};
use crate::descriptor::LabId;
use crate::labs::vacuum::ID;
use crate::ui::keep::{Keeper, Kept};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Saved {
    state: State,
    history: String,
}

/// What a saved lab's file needs of this lab (`ui::keep`), in the lab's own code.
pub const KEEPER: Keeper = Keeper::of::<Lab>();

impl Kept for Lab {
    const LAB: LabId = ID;

    /// The state a saved lab keeps beside its data directory.
    fn saved_state(&self) -> serde_json::Value {
        let saved = Saved {
            state: self.state.clone(),
            history: crate::labs::vacuum::share::encode(&self.history),
        };
        serde_json::to_value(saved).unwrap_or(serde_json::Value::Null)
    }

    /// The lab as [`Kept::saved_state`] kept it; `None` when `state` is not such a state. It
    /// holds no session of its own, so it needs nothing more on the reopened database.
    fn parse_state(state: &serde_json::Value) -> Option<Lab> {
        // From its text, not `from_value`: serde_json's Value deserializer, made again for
        // every type read, was 46 KB of the app's .wasm (before wasm-opt).
        let s: Saved = serde_json::from_str(&state.to_string()).ok()?;
        Some(Lab {
            state: s.state,
            history: crate::labs::vacuum::share::decode(&s.history).ok()?,
        })
    }
}
