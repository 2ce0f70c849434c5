//! The leave lab (see LABS.md). model.rs: state and actions, no UI; view.rs: components;
//! text.rs and ui.tsv: this page's own texts.
pub mod libraries;
pub mod model;
pub mod text;
pub mod view;

/// Whether the home page lists this lab as ready.
pub const BUILT: bool = true;
