//! The registry of labs, as data: `src/labs/ORDER` (one slug a line, in the site's order) and
//! each lab's descriptor `src/labs/<slug>/lab.tsv` (`field<TAB>value` lines, `#` comments,
//! `-` for none). `build.rs` writes the Rust registry from them ([`registry`], included by
//! `src/labs/mod.rs`; [`descriptor`], included by each lab's `mod.rs`); `scripts/labs.mjs`
//! reads the same files for the JavaScript tools. Adding a lab is its folder and its line in
//! `ORDER`.

use std::path::Path;

/// Where the order and the folders are, from the crate's root.
pub const LABS_DIR: &str = "src/labs";

/// One lab's descriptor, as its `lab.tsv` has it.
#[derive(Debug, Clone, PartialEq)]
pub struct Desc {
    pub slug: String,
    pub tag: String,
    /// The component its `view` module has for its page.
    pub view: String,
    pub schema: Option<String>,
    pub keeps_path: bool,
    /// Whether Save/Open keep it (its model has a `KEEPER`).
    pub saves: bool,
    /// Its guided tour's steps (0: none).
    pub tour: usize,
    pub title: String,
    pub short: String,
    pub summary: String,
    pub blurb: String,
    /// What its page shows first, for the static first screen.
    pub heading: String,
    pub intro: Option<String>,
    /// Only in a build with this cargo feature (the test-only stub lab).
    pub feature: Option<String>,
}

/// The slugs `ORDER` lists, in order.
pub fn order(root: &Path) -> Result<Vec<String>, String> {
    let path = root.join(LABS_DIR).join("ORDER");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect())
}

/// Every lab of `ORDER` with its descriptor, in order.
pub fn labs(root: &Path) -> Result<Vec<Desc>, String> {
    let mut out: Vec<Desc> = Vec::new();
    for slug in order(root)? {
        let path = root.join(LABS_DIR).join(&slug).join("lab.tsv");
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let d = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if d.slug != slug {
            return Err(format!(
                "{}: slug {} is not its folder's",
                path.display(),
                d.slug
            ));
        }
        if out.iter().any(|o| o.slug == slug) {
            return Err(format!("{LABS_DIR}/ORDER lists {slug} twice"));
        }
        out.push(d);
    }
    Ok(out)
}

/// A descriptor from the text of a `lab.tsv`.
pub fn parse(text: &str) -> Result<Desc, String> {
    let mut fields = std::collections::BTreeMap::new();
    for line in text.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (k, v) = line
            .split_once('\t')
            .ok_or_else(|| format!("the line {line:?} is not field<TAB>value"))?;
        if fields.insert(k.trim(), v.trim()).is_some() {
            return Err(format!("the field {k} comes twice"));
        }
    }
    let mut take = |name: &str| {
        fields
            .remove(name)
            .ok_or_else(|| format!("no field {name}"))
    };
    let opt = |v: &str| (v != "-").then(|| v.to_owned());
    let yes = |name: &str, v: &str| match v {
        "yes" => Ok(true),
        "no" => Ok(false),
        _ => Err(format!("{name} is {v:?}, not yes or no")),
    };
    let keeps_path = take("keeps_path")?;
    let saves = take("saves")?;
    let tour = take("tour")?;
    let d = Desc {
        slug: take("slug")?.to_owned(),
        tag: take("tag")?.to_owned(),
        view: take("view")?.to_owned(),
        schema: opt(take("schema")?),
        keeps_path: yes("keeps_path", keeps_path)?,
        saves: yes("saves", saves)?,
        tour: tour
            .parse()
            .map_err(|_| format!("tour is {tour:?}, not a count"))?,
        title: take("title")?.to_owned(),
        short: take("short")?.to_owned(),
        summary: take("summary")?.to_owned(),
        blurb: take("blurb")?.to_owned(),
        heading: take("first_screen.heading")?.to_owned(),
        intro: opt(take("first_screen.intro")?),
        feature: take("feature").ok().map(str::to_owned),
    };
    // Read by scripts/labs.mjs only (the first screen's markup).
    take("first_screen.section")?;
    take("first_screen.lead")?;
    if let Some(extra) = fields.keys().next() {
        return Err(format!("no lab has the field {extra}"));
    }
    if d.saves && d.schema.is_none() {
        return Err("a lab that saves runs SQL: it needs a schema".to_owned());
    }
    Ok(d)
}

/// The constant `build.rs` writes for a catalog key (`lab.jobs.title` → `LAB_JOBS_TITLE`).
fn key(k: &str) -> String {
    let name: String = k
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("crate::keys::{name}")
}

fn cfg(d: &Desc) -> String {
    match &d.feature {
        Some(f) => format!("#[cfg(feature = {f:?})]\n"),
        None => String::new(),
    }
}

/// The registry, `src/labs/mod.rs` includes it: each lab's module, [`ALL`] in order, and the
/// keepers of the labs that save. `root` is where the lab folders are found from.
pub fn registry(root: &Path, labs: &[Desc]) -> String {
    let mut s = String::from(
        "// Written by build.rs (build/labs.rs) from src/labs/ORDER and src/labs/*/lab.tsv.\n\n",
    );
    for d in labs {
        let path = root.join(LABS_DIR).join(&d.slug).join("mod.rs");
        s += &format!(
            "{}#[path = {:?}]\npub mod {};\n",
            cfg(d),
            path.display().to_string(),
            d.slug
        );
    }
    s += "\n/// Every lab, in order: routes, the header, the home page and embed validation read this.\n";
    s += "pub const ALL: &[LabId] = &[\n";
    for d in labs {
        s += &format!("    {}{}::ID,\n", cfg(d).replace('\n', " "), d.slug);
    }
    s += "];\n\n";
    s += "/// The keeper of a lab that saves (Save/Open, `ui::keep`): its model's `KEEPER`. Only\n\
          /// the flows of taking a lab home reach it, so in the release split by lab the keepers'\n\
          /// code is in their module (`Keep`), not in the app's main module.\n";
    s += "pub fn keeper(lab: LabId) -> Option<&'static crate::ui::keep::Keeper> {\n";
    s += "    let keepers: &[(LabId, &'static crate::ui::keep::Keeper)] = &[\n";
    for d in labs.iter().filter(|d| d.saves) {
        s += &format!(
            "        {}({slug}::ID, &{slug}::model::KEEPER),\n",
            cfg(d).replace('\n', " "),
            slug = d.slug
        );
    }
    s += "    ];\n    keepers.iter().find(|(l, _)| *l == lab).map(|(_, k)| *k)\n}\n";
    s
}

/// The labs' slugs and tags, as data below every lab's code (`crate::lab` includes it): what
/// the layers under `labs` may know of the other labs.
pub fn tags(labs: &[Desc]) -> String {
    let mut s = String::from(
        "// Written by build.rs (build/labs.rs) from src/labs/ORDER and src/labs/*/lab.tsv.\n\
         /// Every lab's slug and tag, in order.\n\
         pub const TAGS: &[(&str, &str)] = &[\n",
    );
    for d in labs {
        s += &format!(
            "    {}({:?}, {:?}),\n",
            cfg(d).replace('\n', " "),
            d.slug,
            d.tag
        );
    }
    s + "];\n"
}

/// A lab's descriptor (`LAB`, `ID`, its page), its `mod.rs` includes it; its tour's length
/// is checked against its `tour` module when the build compiles.
pub fn descriptor(d: &Desc) -> String {
    let schema = match &d.schema {
        Some(s) => format!("Some({s:?})"),
        None => "None".to_owned(),
    };
    let mut s = format!(
        "// Written by build.rs (build/labs.rs) from src/labs/{slug}/lab.tsv.\n\
         crate::descriptor::descriptor! {{\n    \
         slug: {slug:?}, tag: {tag:?}, schema: {schema}, keeps_path: {keeps}, saves: {saves},\n    \
         view: {view},\n    \
         title: {title}, short: {short},\n    \
         summary: {summary}, blurb: {blurb},\n\
         }}\n",
        slug = d.slug,
        tag = d.tag,
        keeps = d.keeps_path,
        saves = d.saves,
        view = d.view,
        title = key(&d.title),
        short = key(&d.short),
        summary = key(&d.summary),
        blurb = key(&d.blurb),
    );
    // The first screen's texts are catalog keys too: a key no catalog has fails the build.
    let first: Vec<String> = std::iter::once(&d.heading)
        .chain(d.intro.as_ref())
        .map(|k| key(k))
        .collect();
    s += &format!(
        "#[allow(dead_code)]\nconst FIRST_SCREEN: &[queue_lab_core::i18n::Key] = &[{}];\n",
        first.join(", ")
    );
    if d.tour > 0 {
        s += &format!(
            "const _: () = assert!(\n    tour::TOUR.len() == {n},\n    \"src/labs/{slug}/lab.tsv: tour is not its tour's length\"\n);\n",
            n = d.tour,
            slug = d.slug
        );
    }
    s
}
