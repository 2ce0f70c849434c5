//! "Save this lab" and "Open a saved lab": a lab on PostgreSQL written to a file the learner
//! keeps, and read back into a fresh PostgreSQL.
//!
//! The file (`queue-lab-<lab>-<date>.qlab`), format [`FORMAT`], is three parts:
//!
//! ```text
//! {"app":"queue-lab","format":2,"pglite":"0.5.17","lab":"jobs","clock":"…","lang":"en","state":{…},"dump":N}\n
//! <SHA-256, 64 lowercase hex digits, of line 1 with its \n followed by the dump>\n
//! <the dump: N bytes, PGlite's own dumpDataDir, a gzip tarball of the data directory>
//! ```
//!
//! Line 1 is the manifest, one line of JSON: the app's format version, PGlite's version, the
//! lab, its lab time (a session setting, so not in the data directory), the language, and the
//! lab's model state that is not in the database (what its workers believe they hold, …).
//! Opening checks all of it (format, length, checksum, gzip, lab, PGlite's version, the
//! model state) before it touches any database: a file that fails leaves the lab as it was.
//! A file that passes boots a new PostgreSQL from the dump; the lab that was open goes only
//! once that one answers.

use crate::clock;
use crate::ctx::{Ctx, DbState};
use crate::db::{Db, DbError, Location, TxState};
use crate::descriptor::LabId;
use crate::keys;
use crate::runner::{Runner, Scope, Work};
use leptos::prelude::*;
use queue_lab_core::i18n::{Key, Lang, Msg};
use serde::{Deserialize, Serialize};

/// The file format's version: a file of another is refused. 2 since 2026-12-07: an L4 file
/// holds L4's engine (schema pgque), which changed its tables and functions then (PgQue's
/// pgque.consumer and queue columns, get_queue_info's shape): a file of format 1 is refused
/// with a message instead of opening an engine the page can no longer read.
pub const FORMAT: u32 = 2;
/// What a saved lab's manifest says it is.
const APP: &str = "queue-lab";
/// How far into a file its manifest line may end.
const MANIFEST_MAX: usize = 1 << 20;
const DIGEST_HEX: usize = 64;

/// The manifest: line 1 of a saved lab.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub app: String,
    pub format: u32,
    /// PGlite's version that wrote the dump.
    pub pglite: String,
    /// The lab's slug.
    pub lab: String,
    /// Lab time when saved, as Postgres prints it.
    pub clock: String,
    pub lang: String,
    /// The lab's model state beside the database (its `saved_state()`).
    pub state: serde_json::Value,
    /// The dump's length in bytes.
    pub dump: usize,
}

/// A file checked and ready to open.
#[derive(Clone, Debug)]
pub struct Checked {
    pub manifest: Manifest,
    pub dump: Vec<u8>,
}

/// The labs a file can hold: those on PostgreSQL whose model can be saved (`saves` in the
/// lab's `lab.tsv`; the registry's [`keeper`] lists the same labs, a test checks), asked of
/// the descriptor so that asking does not bring the keepers into the main module.
pub fn saves(lab: LabId) -> bool {
    lab.saves
}

/// The file as bytes: manifest line, checksum line, dump.
pub fn encode(manifest: &Manifest, digest: &str, dump: &[u8]) -> Vec<u8> {
    let mut out = signed_head(manifest);
    out.extend_from_slice(digest.as_bytes());
    out.push(b'\n');
    out.extend_from_slice(dump);
    out
}

/// Line 1 with its newline: the part of the checksum before the dump.
fn signed_head(manifest: &Manifest) -> Vec<u8> {
    let mut out = serde_json::to_vec(manifest).unwrap_or_default();
    out.push(b'\n');
    out
}

/// What the checksum covers: line 1 (as it stands in the file) and the dump.
pub fn signed(head: &[u8], dump: &[u8]) -> Vec<u8> {
    let mut out = head.to_vec();
    out.extend_from_slice(dump);
    out
}

/// A file's parts, read without judging its checksum.
pub struct Parts<'a> {
    pub manifest: Manifest,
    /// Line 1 with its newline, as in the file.
    pub head: &'a [u8],
    pub digest: &'a str,
    pub dump: &'a [u8],
}

fn refused(key: Key) -> Msg {
    Msg::new(key)
}

/// Splits a file into its parts; refuses one that is no saved lab, of another format, or
/// shorter than its manifest says (a file cut off on its way).
pub fn split(bytes: &[u8]) -> Result<Parts<'_>, Msg> {
    let end = bytes
        .iter()
        .take(MANIFEST_MAX)
        .position(|b| *b == b'\n')
        .ok_or_else(|| refused(keys::KEEP_ERR_NOT_SAVED_LAB))?;
    let head = &bytes[..=end];
    // Read as text, like every other JSON the app reads: serde_json's reader of bytes would
    // be a second copy of its parser in the .wasm. (Bytes that are no UTF-8 are no JSON.)
    let line =
        std::str::from_utf8(&head[..end]).map_err(|_| refused(keys::KEEP_ERR_NOT_SAVED_LAB))?;
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|_| refused(keys::KEEP_ERR_NOT_SAVED_LAB))?;
    if value.get("app").and_then(|a| a.as_str()) != Some(APP) {
        return Err(refused(keys::KEEP_ERR_NOT_SAVED_LAB));
    }
    let format = value.get("format").and_then(|f| f.as_u64());
    if format != Some(FORMAT.into()) {
        let found = format.map_or_else(|| "?".to_owned(), |f| f.to_string());
        return Err(Msg::new(keys::KEEP_ERR_FORMAT)
            .arg("found", found)
            .arg("want", FORMAT));
    }
    // Read again from the line, not `from_value(value)` (see `Lab::parse_state`).
    let manifest: Manifest =
        serde_json::from_str(line).map_err(|_| refused(keys::KEEP_ERR_NOT_SAVED_LAB))?;
    let rest = &bytes[end + 1..];
    let short = || Msg::new(keys::KEEP_ERR_TRUNCATED);
    if rest.len() < DIGEST_HEX + 1 || rest[DIGEST_HEX] != b'\n' {
        return Err(short());
    }
    let digest = std::str::from_utf8(&rest[..DIGEST_HEX]).map_err(|_| short())?;
    let dump = &rest[DIGEST_HEX + 1..];
    if dump.len() < manifest.dump {
        return Err(short());
    }
    if dump.len() > manifest.dump {
        return Err(refused(keys::KEEP_ERR_CHECKSUM));
    }
    Ok(Parts {
        manifest,
        head,
        digest,
        dump,
    })
}

/// Judges what the checksum vouches for: a gzip dump, of `lab`, from PGlite `pglite`, with
/// a model state the lab can read.
pub fn judge(manifest: &Manifest, dump: &[u8], lab: LabId, pglite: &str) -> Result<(), Msg> {
    if dump.len() < 2 || dump[0] != 0x1f || dump[1] != 0x8b {
        return Err(refused(keys::KEEP_ERR_NOT_GZIP));
    }
    if manifest.lab != lab.slug {
        let name = crate::descriptor::tag_of(&manifest.lab)
            .map_or_else(|| manifest.lab.clone(), str::to_owned);
        return Err(Msg::new(keys::KEEP_ERR_OTHER_LAB).arg("lab", name));
    }
    if manifest.pglite != pglite {
        return Err(Msg::new(keys::KEEP_ERR_PGLITE)
            .arg("found", manifest.pglite.clone())
            .arg("want", pglite.to_owned()));
    }
    if !state_reads(lab, &manifest.state) {
        return Err(refused(keys::KEEP_ERR_NOT_SAVED_LAB));
    }
    Ok(())
}

/// Checks a file for `lab` on PGlite `pglite`, before any database is touched.
pub async fn check(bytes: &[u8], lab: LabId, pglite: &str) -> Result<Checked, Msg> {
    let parts = split(bytes)?;
    let digest = crate::db::sha256_hex(&signed(parts.head, parts.dump))
        .await
        .map_err(|e| Msg::new(keys::KEEP_ERR_FAILED).arg("error", e.message))?;
    if digest != parts.digest {
        return Err(refused(keys::KEEP_ERR_CHECKSUM));
    }
    judge(&parts.manifest, parts.dump, lab, pglite)?;
    Ok(Checked {
        manifest: parts.manifest,
        dump: parts.dump.to_vec(),
    })
}

/// A lab model that a saved file keeps beside the database: what its workers, consumers or
/// results hold that the data directory does not.
pub trait Kept: Clone + Sized + 'static {
    /// The lab it is the model of.
    const LAB: LabId;
    /// The state a saved lab keeps beside its data directory.
    fn saved_state(&self) -> serde_json::Value;
    /// The model as [`Kept::saved_state`] kept it; `None` when `state` is not such a state.
    fn parse_state(state: &serde_json::Value) -> Option<Self>;
    /// What the model needs again on a database booted from the file (a data directory
    /// keeps no session); nothing unless the lab says.
    fn restore_state(self, db: &Db) -> impl std::future::Future<Output = Result<Self, DbError>> {
        let _ = db;
        std::future::ready(Ok(self))
    }
}

/// What a file needs of a lab that can be saved: its model's [`Kept`] functions, as a value
/// the lab's code makes (its `KEEPER`), which the registry lists (`labs::keeper`, written from
/// `saves` in its `lab.tsv`), reached only through [`keeper`].
pub struct Keeper {
    /// The lab's model state beside the database, as the manifest keeps it (`None` before
    /// the lab is set up).
    pub saved: fn(&Runner) -> Option<serde_json::Value>,
    /// Whether a manifest's state reads as this lab's.
    pub reads: fn(&serde_json::Value) -> bool,
    /// Reads a manifest's state back into the runner that booted the file's dump (as a piece
    /// of the lab's work, on its database).
    pub restore: fn(Runner, Db, serde_json::Value) -> Restoring,
}

impl Keeper {
    /// The keeper of the lab whose model is `M`.
    pub const fn of<M: Kept>() -> Keeper {
        Keeper {
            saved: |runner| runner.state::<M>(M::LAB).map(|m| m.saved_state()),
            reads: |state| M::parse_state(state).is_some(),
            restore: |runner, db, state| {
                Box::pin(async move {
                    let model = M::parse_state(&state).ok_or_else(unread)?;
                    runner.set_state(M::LAB, model.restore_state(&db).await?);
                    Ok(())
                })
            },
        }
    }
}

/// A lab's model being read back from a file ([`Keeper::restore`]).
pub type Restoring = std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), DbError>>>>;

/// A file's model state that its lab cannot read.
fn unread() -> DbError {
    DbError::other("the saved state does not read")
}

/// The keeper of `lab`'s files: every lab that [`saves`] has one; `None` for the others.
/// Only the flows (saving, checking, restoring) call it, so in the release split by lab the
/// keepers' code (each lab's saved state, its JSON) is in the module `Keep`, not in the
/// labs' own modules or the app's. The one import of `ui/` from the labs' layer
/// (`src/house/layers.rs`: KNOWN): a descriptor that carried its keeper put the keepers in the
/// app's main module (+224 KB of its .wasm, measured), as any value handed down from the app would.
fn keeper(lab: LabId) -> Option<&'static Keeper> {
    crate::labs::keeper(lab)
}

fn state_reads(lab: LabId, state: &serde_json::Value) -> bool {
    keeper(lab).is_some_and(|k| (k.reads)(state))
}

fn saved_state(runner: &Runner, lab: LabId) -> Option<serde_json::Value> {
    keeper(lab).and_then(|k| (k.saved)(runner))
}

/// Writes `lab` as a file: waits for the lab's running work (its turn in the runner), and
/// refuses while the console holds a transaction (the dump would wait for it) or before the
/// lab is set up.
pub async fn save(runner: &Runner, lab: LabId, lang: Lang) -> Result<Vec<u8>, Msg> {
    if runner.status().with_untracked(|s| s.tx) != TxState::Idle {
        return Err(refused(keys::KEEP_ERR_CONSOLE_TX));
    }
    let keeper = runner.clone();
    let work = async move |w: &Work| {
        let Some(state) = saved_state(&keeper, lab) else {
            return Ok(None);
        };
        let clock = clock::now(w.db()).await?;
        let (dump, pglite) = w.db().data_dir().await?;
        Ok(Some((state, clock, dump, pglite)))
    };
    let failed = |e: DbError| Msg::new(keys::KEEP_ERR_FAILED).arg("error", e.message);
    let saved = runner
        .run(Scope::Lab(lab), Some(Msg::new(keys::KEEP_SAVING)), work)
        .await
        .map_err(failed)?;
    let Some((state, clock, dump, pglite)) = saved else {
        return Err(refused(keys::KEEP_ERR_NOT_READY));
    };
    let manifest = Manifest {
        app: APP.to_owned(),
        format: FORMAT,
        pglite: pglite.unwrap_or_default(),
        lab: lab.slug.to_owned(),
        clock,
        lang: lang.code().to_owned(),
        state,
        dump: dump.len(),
    };
    let digest = crate::db::sha256_hex(&signed(&signed_head(&manifest), &dump))
        .await
        .map_err(failed)?;
    Ok(encode(&manifest, &digest, &dump))
}

/// A new PostgreSQL booted from a checked file, its lab's clock and model state set: the
/// runner that owns it, and the server's version. The lab open until now is not touched.
pub async fn restore(
    at: &Location,
    file: &Checked,
    lab: LabId,
) -> Result<(Runner, String), DbError> {
    let db = Db::open_dump(at, |_| {}, &file.dump).await?;
    let version = clock::start(&db).await?;
    let runner = Runner::new(db);
    runner.set_clock(lab, &file.manifest.clock);
    let target = runner.clone();
    let state = file.manifest.state.clone();
    let restored = match keeper(lab) {
        Some(k) => {
            runner
                .run(Scope::Lab(lab), None, async move |w: &Work| {
                    (k.restore)(target, w.db().clone(), state).await
                })
                .await
        }
        None => Err(unread()),
    };
    if let Err(e) = restored {
        runner.stop(&e.message);
        return Err(e);
    }
    Ok((runner, version))
}

/// The file name a save is offered under: `queue-lab-jobs-2026-12-05.qlab` (today's date).
pub fn file_name(lab: LabId) -> String {
    let d = js_sys::Date::new_0();
    format!(
        "queue-lab-{}-{:04}-{:02}-{:02}.qlab",
        lab.slug,
        d.get_full_year(),
        d.get_month() + 1,
        d.get_date()
    )
}

/// What the controls last said.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    Working(Msg),
    Done(Msg),
    Refused(Msg),
}

/// Opens a file chosen on `lab`'s page: checks it against PGlite's version (the running
/// one's, else the build manifest's), then boots it and hands the page the new runner.
pub async fn open_file(ctx: Ctx, bytes: Vec<u8>, lab: LabId, note: RwSignal<Option<Note>>) {
    let manifest = match ctx.pglite.get_untracked() {
        Some(m) => Some(m),
        None => Location::manifest(Location::APP_MANIFEST).await,
    };
    let running = ctx.runner_untracked();
    let pglite = running
        .as_ref()
        .and_then(|r| r.db().pglite_version())
        .or_else(|| manifest.as_ref().and_then(|m| m.version.clone()))
        .unwrap_or_default();
    let checked = match check(&bytes, lab, &pglite).await {
        Ok(c) => c,
        Err(m) => {
            note.try_set(Some(Note::Refused(m)));
            return;
        }
    };
    if running
        .as_ref()
        .is_some_and(|r| r.status().with_untracked(|s| s.tx) != TxState::Idle)
    {
        note.try_set(Some(Note::Refused(refused(keys::KEEP_ERR_CONSOLE_TX))));
        return;
    }
    let Some(manifest) = manifest else {
        note.try_set(Some(Note::Refused(refused(keys::KEEP_ERR_NO_MANIFEST))));
        return;
    };
    note.try_set(Some(Note::Working(Msg::new(keys::KEEP_OPENING))));
    match restore(&Location::app(&manifest), &checked, lab).await {
        Ok((runner, version)) => {
            if let Some(old) = ctx.runner_untracked() {
                old.stop("PostgreSQL was replaced by a saved lab");
            }
            crate::db::collect_log(runner.db(), ctx.log);
            // The page stays in the learner's language; the file's is only recorded.
            ctx.db.set(DbState::Ready {
                runner,
                version,
                fallback: None,
            });
            note.try_set(Some(Note::Done(
                Msg::new(keys::KEEP_OPENED).arg("clock", checked.manifest.clock.clone()),
            )));
        }
        Err(e) => {
            note.try_set(Some(Note::Refused(
                Msg::new(keys::KEEP_ERR_BOOT).arg("error", e.message),
            )));
        }
    }
}

#[cfg(test)]
mod tests;
