//! What PostgreSQL's lexer steps over whole, where a `;`, a `$n` or a `:name` means nothing:
//! quoted strings (`E''` strings with backslash escapes too), quoted identifiers, dollar
//! quotes (`$$`, `$tag$`), `--` comments and `/* */` comments (nested, as in PostgreSQL).
//! One reading for the SQL console (psql's splitting and variables), the lab export (`$n`
//! put back as literals) and pgcheck's contract files.
//!
//! The text is read byte by byte: every byte the rules look at is ASCII, and no byte of a
//! multi-byte UTF-8 character is, so those pass through (an identifier or a dollar quote's
//! tag may hold them).

/// A byte that goes on an identifier: a letter, a digit, `_`, or part of a multi-byte
/// character. (`$` goes on one too, after its first character: see [`after_ident`].)
pub fn ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

/// Whether the byte before `at` ends an identifier (or a keyword), `$` included: then an `E`
/// there is its last letter, not a string's prefix, and a `$` is not a dollar quote's start.
pub fn after_ident(b: &[u8], at: usize) -> bool {
    at > 0 && (ident_byte(b[at - 1]) || b[at - 1] == b'$')
}

/// The length of the tag of a dollar quote starting at `at` (`$$` or `$tag$`), if one
/// starts there.
pub fn dollar_tag(b: &[u8], at: usize) -> Option<usize> {
    if after_ident(b, at) {
        return None; // `a$b$`: part of an identifier
    }
    let first = *b.get(at + 1)?;
    if first == b'$' {
        return Some(2);
    }
    if !(first.is_ascii_alphabetic() || first == b'_' || first >= 0x80) {
        return None;
    }
    let mut j = at + 2;
    while let Some(&c) = b.get(j) {
        if c == b'$' {
            return Some(j + 1 - at);
        }
        if !ident_byte(c) {
            return None;
        }
        j += 1;
    }
    None
}

/// A quote, comment or dollar quote stepped over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The index after it; the end of the text when it is not closed. A `--` comment ends
    /// before its newline.
    pub end: usize,
    /// Whether it was closed before the text ended (a `--` comment always is).
    pub closed: bool,
}

/// The quote, comment or dollar quote starting at `i`, or `None` when none starts there.
pub fn skip(b: &[u8], i: usize) -> Option<Skipped> {
    let n = b.len();
    let open = |end: Option<usize>| Skipped {
        end: end.unwrap_or(n),
        closed: end.is_some(),
    };
    match b[i] {
        q @ (b'\'' | b'"') => {
            // E'…' takes backslash escapes; a standard string or an identifier only doubles
            // its quote.
            let escapes =
                q == b'\'' && i > 0 && matches!(b[i - 1], b'e' | b'E') && !after_ident(b, i - 1);
            let mut j = i + 1;
            while j < n {
                if escapes && b[j] == b'\\' {
                    j += 2;
                    continue;
                }
                if b[j] == q {
                    if b.get(j + 1) == Some(&q) {
                        j += 2;
                        continue;
                    }
                    return Some(open(Some(j + 1)));
                }
                j += 1;
            }
            Some(open(None))
        }
        b'-' if b.get(i + 1) == Some(&b'-') => Some(Skipped {
            end: b[i..].iter().position(|&c| c == b'\n').map_or(n, |p| i + p),
            closed: true,
        }),
        b'/' if b.get(i + 1) == Some(&b'*') => {
            let mut depth = 0;
            let mut j = i;
            while j < n {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        return Some(open(Some(j)));
                    }
                } else {
                    j += 1;
                }
            }
            Some(open(None))
        }
        b'$' => {
            let len = dollar_tag(b, i)?;
            let tag = &b[i..i + len];
            let body = i + len;
            let close = b[body..].windows(len).position(|w| w == tag);
            Some(open(close.map(|p| body + p + len)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends(text: &str) -> Vec<(usize, bool)> {
        let b = text.as_bytes();
        (0..b.len())
            .filter_map(|i| skip(b, i).map(|s| (s.end, s.closed)))
            .take(1)
            .collect()
    }

    #[test]
    fn quotes_comments_and_dollar_quotes_are_stepped_over_whole() {
        assert_eq!(ends("x 'it''s' y"), [(9, true)]);
        assert_eq!(ends(r"E'a\'b' y"), [(7, true)]);
        assert_eq!(
            ends(r"'a\' y"),
            [(4, true)],
            "no E: the backslash is a byte"
        );
        assert_eq!(ends(r"x$e'a\'b' y"), [(7, true)], "x$e is a name, not E''");
        assert_eq!(ends(r#""a""b" y"#), [(6, true)]);
        assert_eq!(ends("-- note\nselect"), [(7, true)]);
        assert_eq!(ends("/* a /* b */ c */ d"), [(17, true)]);
        assert_eq!(ends("$f$ a $$ b $f$ c"), [(14, true)]);
        assert_eq!(ends("a$b$ c"), []);
        assert_eq!(ends("$1 and $x"), []);
    }

    #[test]
    fn what_is_not_closed_runs_to_the_end() {
        assert_eq!(ends("'open"), [(5, false)]);
        assert_eq!(ends("\"open"), [(5, false)]);
        assert_eq!(ends("/* a /* b */"), [(12, false)]);
        assert_eq!(ends("$$ body"), [(7, false)]);
        assert_eq!(ends("-- to the end"), [(13, true)]);
    }
}
