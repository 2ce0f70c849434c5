//! The advisor's sentences are [`Msg`]s (a `leave.` key and its named numbers, shown by the
//! app's one catalog); [`MESSAGE_KEYS`] is every key the advisor uses: the constants
//! `build.rs` writes from `assets/i18n/leave.tsv`, so the two cannot differ.

use crate::i18n::Key;
pub use crate::i18n::Msg;

/// Every message key the advisor can emit, plus the input labels, units, help texts, load
/// bands, signal titles and statuses (a test checks that each one is emitted).
pub const MESSAGE_KEYS: &[Key] = crate::keys::ALL;
