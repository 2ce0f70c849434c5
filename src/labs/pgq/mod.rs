//! The pgq lab (see LABS.md). model.rs: state and actions, no UI (sql.rs its statements,
//! rows.rs the rows they return, consumers.rs subscribing and cooperative consumers,
//! share.rs the share link); view.rs and consumers_view.rs: components.
pub mod compare;
pub mod compare_view;
pub mod consumers;
pub mod consumers_view;
pub mod model;
pub mod rows;
pub mod share;
pub mod sql;
pub mod view;

/// Whether the home page lists this lab as ready.
pub const BUILT: bool = true;
