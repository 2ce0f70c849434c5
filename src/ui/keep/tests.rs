use super::*;
use crate::keys;
use crate::labs::jobs;

fn manifest(dump: &[u8]) -> Manifest {
    Manifest {
        app: APP.to_owned(),
        format: FORMAT,
        pglite: "0.5.17".to_owned(),
        lab: "jobs".to_owned(),
        clock: clock::START.to_owned(),
        lang: "en".to_owned(),
        state: jobs::model::Lab::default().saved_state(),
        dump: dump.len(),
    }
}

const DUMP: &[u8] = &[0x1f, 0x8b, 8, 0, 1, 2, 3, 4];
const DIGEST: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

#[test]
fn a_file_splits_back_into_its_manifest_checksum_and_dump() {
    let m = manifest(DUMP);
    let file = encode(&m, DIGEST, DUMP);
    let parts = split(&file).expect("splits");
    assert_eq!(parts.manifest, m);
    assert_eq!(parts.digest, DIGEST);
    assert_eq!(parts.dump, DUMP);
    assert_eq!(
        signed(parts.head, parts.dump),
        signed(&signed_head(&m), DUMP)
    );
    assert_eq!(
        judge(&parts.manifest, parts.dump, jobs::ID, "0.5.17"),
        Ok(())
    );
}

#[test]
fn a_cut_off_file_is_refused_as_truncated() {
    let file = encode(&manifest(DUMP), DIGEST, DUMP);
    for cut in [
        file.len() - 1,
        file.len() - DUMP.len(),
        file.len() - DUMP.len() - 10,
    ] {
        let key = split(&file[..cut]).err().map(|m| m.key);
        assert_eq!(key, Some(keys::KEEP_ERR_TRUNCATED), "cut at {cut}");
    }
}

#[test]
fn another_format_version_or_no_saved_lab_is_refused_before_anything_else() {
    let mut m = manifest(DUMP);
    m.format = FORMAT + 1;
    let file = encode(&m, DIGEST, DUMP);
    let refusal = split(&file).err().expect("refused");
    assert_eq!(refusal.key, keys::KEEP_ERR_FORMAT);
    for junk in [
        &b"hello"[..],
        b"{\"app\":\"other\"}\nx",
        b"\x1f\x8b\x08\x00",
        b"",
    ] {
        let key = split(junk).err().map(|m| m.key);
        assert_eq!(key, Some(keys::KEEP_ERR_NOT_SAVED_LAB));
    }
}

#[test]
fn another_lab_another_pglite_or_a_dump_that_is_not_gzip_is_refused() {
    let m = manifest(DUMP);
    let key = |r: Result<(), Msg>| r.err().map(|m| m.key);
    assert_eq!(
        key(judge(&m, DUMP, crate::labs::pgq::ID, "0.5.17")),
        Some(keys::KEEP_ERR_OTHER_LAB)
    );
    assert_eq!(
        key(judge(&m, DUMP, jobs::ID, "0.6.0")),
        Some(keys::KEEP_ERR_PGLITE)
    );
    assert_eq!(
        key(judge(&m, b"PK\x03\x04", jobs::ID, "0.5.17")),
        Some(keys::KEEP_ERR_NOT_GZIP)
    );
    let mut bad = m.clone();
    bad.state = serde_json::json!({"workers": 3});
    assert_eq!(
        key(judge(&bad, DUMP, jobs::ID, "0.5.17")),
        Some(keys::KEEP_ERR_NOT_SAVED_LAB)
    );
}
