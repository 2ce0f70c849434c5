//! What the shell and the session know of a lab: its descriptor, [`Descriptor`], and its id.
//!
//! Each lab's descriptor is data in its own folder (`labs/<slug>/lab.tsv`), and
//! `src/labs/ORDER` lists the labs in the order the site shows them; `build.rs` writes them
//! as Rust (`build/labs.rs`): each lab's `pub const LAB` and `pub const ID`, and `labs::ALL`.
//! The routes, the header, the home page, embed validation and the tests all read that list.
//! This module imports no lab, so the session (`runner`) and the shared context can name
//! labs without depending on them.

use leptos::prelude::AnyView;
use queue_lab_core::i18n::Key;

/// One lab, as everything outside it sees it.
pub struct Descriptor {
    /// The id in routes (`#/jobs`), embed URLs (`?lab=jobs`) and the embedding kit.
    pub slug: &'static str,
    /// Its place in the sequence: `L1` … `L5`.
    pub tag: &'static str,
    /// Catalog keys of its full title, its name in the header, and its home-page summary.
    pub title: Key,
    pub short: Key,
    pub summary: Key,
    /// Catalog key of its one-line description on the embedding kit's snippet page
    /// (`assets/embed/index.html`, checked against the catalog by a test in `labs`).
    pub blurb: Key,
    /// Its own schema if it runs SQL (see [`Descriptor::needs_postgres`]): the runner creates it
    /// before the lab's first piece of work and puts it first on the lab's search path (so an
    /// unqualified `create table` lands there), then `lab` for the virtual clock (`lab.now()`
    /// ahead of `pg_catalog.now()`). See [`Descriptor::search_path`].
    pub schema: Option<&'static str>,
    /// Whether its work never changes the session's search path itself, so a piece that
    /// follows a piece of the same lab finds the session as that piece left it.
    pub keeps_path: bool,
    /// Whether Save/Open keep it (`saves` in its `lab.tsv`): its model is kept beside the
    /// database by its keeper (`ui::keep`), which the registry lists (`labs::keeper`).
    pub saves: bool,
    /// Its page: built at once, or after its code has arrived (see [`Page`]).
    pub page: Page,
}

/// How a lab's page is built. In the usual build every lab's code is in the app's `.wasm`
/// ([`Page::Built`]). The release is split by lab (`--cfg queue_lab_split`, set by `./lab`'s
/// release build; scripts/split-release.mjs): a lab's code, and what only it needs, is a
/// module of its own that its page fetches first ([`Page::Fetched`]).
#[derive(Clone, Copy)]
pub enum Page {
    Built(fn() -> AnyView),
    Fetched(fn() -> Fetching),
}

/// A lab's code on its way: the page's constructor, or the failure to fetch it (its details
/// went to the browser's console; a second attempt starts afresh).
pub type Fetching =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<fn() -> AnyView, FetchFailed>>>>;

/// A lab's module did not arrive (the network, or a build that replaced it on the server).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FetchFailed;

impl From<leptos::wasm_split::SplitLoaderError> for FetchFailed {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> FetchFailed {
        FetchFailed
    }
}

/// A lab's page constructor, by the lab's slug.
type Constructor = (&'static str, fn() -> AnyView);

thread_local! {
    /// The constructors of the labs whose code has arrived.
    static ARRIVED: std::cell::RefCell<Vec<Constructor>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl Descriptor {
    /// Its page's constructor, if its code is here.
    pub fn constructor(&self) -> Option<fn() -> AnyView> {
        match self.page {
            Page::Built(build) => Some(build),
            Page::Fetched(_) => ARRIVED.with(|a| {
                a.borrow()
                    .iter()
                    .find(|(slug, _)| *slug == self.slug)
                    .map(|(_, build)| *build)
            }),
        }
    }

    /// Its page's constructor, once its code is here (fetched if it is not; kept for good).
    pub async fn fetch(&'static self) -> Result<fn() -> AnyView, FetchFailed> {
        let fetch = match self.page {
            Page::Built(build) => return Ok(build),
            Page::Fetched(fetch) => fetch,
        };
        if let Some(build) = self.constructor() {
            return Ok(build);
        }
        let build = fetch().await?;
        if self.constructor().is_none() {
            ARRIVED.with(|a| a.borrow_mut().push((self.slug, build)));
        }
        Ok(build)
    }

    /// Whether it runs SQL, that is has a schema (a lab page that does starts PostgreSQL's
    /// download when idle).
    pub const fn needs_postgres(&self) -> bool {
        self.schema.is_some()
    }

    /// The search path its statements run with: its schema, then [`NO_LAB_SEARCH_PATH`].
    pub fn search_path(&self) -> String {
        match self.schema {
            Some(schema) => format!("{schema}, {NO_LAB_SEARCH_PATH}"),
            None => NO_LAB_SEARCH_PATH.to_owned(),
        }
    }
}

/// A lab's descriptor as Rust: `pub const LAB` ([`Descriptor`], its page the component `view` names
/// in the lab's `view` module) and `pub const ID`. Written by `build.rs` from the lab's
/// `lab.tsv` (`build/labs.rs`), which its `mod.rs` includes.
macro_rules! descriptor {
    (
        slug: $slug:literal, tag: $tag:literal, schema: $schema:expr, keeps_path: $keeps:literal,
        saves: $saves:literal,
        view: $view:ident,
        title: $title:expr, short: $short:expr,
        summary: $summary:expr, blurb: $blurb:expr $(,)?
    ) => {
        pub const LAB: $crate::descriptor::Descriptor = $crate::descriptor::Descriptor {
            slug: $slug,
            tag: $tag,
            title: $title,
            short: $short,
            summary: $summary,
            blurb: $blurb,
            schema: $schema,
            keeps_path: $keeps,
            saves: $saves,
            page: page(),
        };
        pub const ID: $crate::descriptor::LabId = $crate::descriptor::LabId(&LAB);

        fn build() -> leptos::prelude::AnyView {
            use leptos::prelude::*;
            view! { <view::$view/> }.into_any()
        }

        #[cfg(not(queue_lab_split))]
        const fn page() -> $crate::descriptor::Page {
            $crate::descriptor::Page::Built(build)
        }

        // The split point: the splitter moves `constructor` and all that only it reaches
        // into the module named after the view. It returns the constructor, not the page,
        // so the page is built by the app's render closure, under the owner it has in the
        // build that is not split (a page built inside the fetch's task was disposed in
        // another order and panicked on leaving the lab).
        #[cfg(queue_lab_split)]
        #[leptos::wasm_split::wasm_split($view, wasm_split_path = ::leptos::wasm_split, fallible)]
        fn constructor() -> Result<fn() -> leptos::prelude::AnyView, $crate::descriptor::FetchFailed> {
            Ok(build)
        }

        #[cfg(queue_lab_split)]
        const fn page() -> $crate::descriptor::Page {
            $crate::descriptor::Page::Fetched(|| Box::pin(constructor()))
        }
    };
}
pub(crate) use descriptor;

/// A lab, by its descriptor: equal, hashed and printed by its slug.
#[derive(Clone, Copy)]
pub struct LabId(pub &'static Descriptor);

impl LabId {
    pub fn as_str(self) -> &'static str {
        self.0.slug
    }
}

impl std::ops::Deref for LabId {
    type Target = Descriptor;
    fn deref(&self) -> &Descriptor {
        self.0
    }
}

impl PartialEq for LabId {
    fn eq(&self, other: &LabId) -> bool {
        self.0.slug == other.0.slug
    }
}
impl Eq for LabId {}

impl std::hash::Hash for LabId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.slug.hash(state);
    }
}

impl std::fmt::Debug for LabId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.slug)
    }
}

// Every lab's slug and tag (`TAGS`), written by build.rs from `src/labs/ORDER` and the
// labs' `lab.tsv`: data, so the layers below the labs' code may know of every lab.
include!(concat!(env!("OUT_DIR"), "/lab_tags.rs"));

/// The tag (`L4`) of the lab with this slug (`pgq`), whichever lab's page asks.
pub fn tag_of(slug: &str) -> Option<&'static str> {
    TAGS.iter().find(|(s, _)| *s == slug).map(|(_, tag)| *tag)
}

/// The search path of work that belongs to no lab (the console on the home page, Reset).
pub const NO_LAB_SEARCH_PATH: &str = "lab, pg_catalog, public";
