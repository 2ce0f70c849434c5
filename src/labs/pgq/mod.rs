//! The pgq lab (see LABS.md). model.rs: state and actions, no UI; view.rs: components.
pub mod compare;
pub mod compare_view;
pub mod model;
pub mod view;

/// Whether the home page lists this lab as ready.
pub const BUILT: bool = true;
