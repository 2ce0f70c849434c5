//! What L4's panels are handed: the lab, its snapshot, its actions, and whether they are
//! disabled while work runs.

use crate::labs::pgq::model::{Action, Lab, Snapshot};
use leptos::prelude::*;

pub type LabSig = RwSignal<Option<Lab>, LocalStorage>;

#[derive(Clone, Copy)]
pub struct Wiring {
    pub lab: LabSig,
    pub snap: RwSignal<Snapshot>,
    pub act: Callback<Action>,
    pub disabled: Signal<bool>,
}
