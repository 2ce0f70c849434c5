//! Text in URLs: the one codec the labs' share links and query strings use.
//!
//! - [`encode`] / [`decode`]: a query value (`?w=16&j=1%2C500`), percent-encoded; decoding
//!   is lenient as browsers are (`+` is a space, a stray `%` stays as it is).
//! - [`encode_token`] / [`decode_token`]: free text inside a lab's compact share text
//!   (`e~7B…`), where `;` (in older links `.`) separates steps and `,` values: everything but
//!   letters and digits is escaped as `~XX`, so the text can never contain a separator;
//!   decoding is strict.

/// Percent-encodes everything but the unreserved characters (`A-Z a-z 0-9 - _ . ~`).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Reads a query value: `%XX` escapes, `+` as a space; what does not decode stays as typed.
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => match hex_byte(bytes.get(i + 1..i + 3)) {
                Some(b) => {
                    out.push(b);
                    i += 3;
                }
                None => {
                    out.push(b'%');
                    i += 1;
                }
            },
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Escapes everything but ASCII letters and digits as `~XX`.
pub fn encode_token(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() {
            out.push(b as char);
        } else {
            out.push_str(&format!("~{b:02X}"));
        }
    }
    out
}

/// The inverse of [`encode_token`]; `None` for a broken escape or text that is not UTF-8.
pub fn decode_token(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'~' {
            out.push(hex_byte(bytes.get(i + 1..i + 3))?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn hex_byte(two: Option<&[u8]>) -> Option<u8> {
    let text = std::str::from_utf8(two?).ok()?;
    u8::from_str_radix(text, 16).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_round_trip_and_decode_leniently() {
        for s in ["16", "1,500", "a b&c=d", "큐 #1", "100%", ""] {
            assert_eq!(decode(&encode(s)), s);
        }
        assert_eq!(encode("1,500"), "1%2C500");
        assert_eq!(decode("a+b"), "a b");
        assert_eq!(decode("50%"), "50%");
        assert_eq!(decode("%zz1"), "%zz1");
        assert_eq!(decode("%ED%81%90"), "큐");
    }

    #[test]
    fn tokens_never_contain_a_separator_and_round_trip() {
        for s in ["default", "{\"kind\": \"email\"}", "a.b,c-d~e", "큐", ""] {
            let t = encode_token(s);
            assert!(t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'~'));
            assert_eq!(decode_token(&t).as_deref(), Some(s));
        }
        assert_eq!(decode_token("a~2"), None);
        assert_eq!(decode_token("~FF"), None);
    }
}
