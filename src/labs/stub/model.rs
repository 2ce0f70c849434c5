//! The stub lab's state and actions: none. A real lab keeps here what its page shows and
//! the actions a learner takes, without UI (see `src/labs/jobs/model.rs`).
