//! How numbers and sizes read, for the page and for `pgcheck` alike: the one home for them.

/// 20000 → "20,000" (Korean groups thousands the same way); any integer type.
pub fn group(n: impl Into<i128>) -> String {
    let n: i128 = n.into();
    let digits = n.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if n < 0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size as PostgreSQL's `pg_size_pretty` writes it (1 kB = 1,024 bytes): 8192 → "8 kB",
/// 3,145,728 → "3.0 MB"; under 1 kB in kB too ("0 kB"), so a column of sizes reads alike.
pub fn bytes(n: i64) -> String {
    const MB: i64 = 1 << 20;
    if n >= MB {
        format!("{:.1} MB", n as f64 / MB as f64)
    } else {
        format!("{} kB", group(n / 1024))
    }
}

/// A measured or computed number in a sentence: from 100 up, rounded to a whole number
/// (halves away from zero) with commas between thousands; one decimal from 10; two below;
/// trailing zeros dropped. A small number that is not zero never reads "0" (0.001 stays
/// "0.001", so "at least 0.001 s" does not read "at least 0"). Not finite: "–".
pub fn number(value: f64) -> String {
    if !value.is_finite() {
        return "–".to_string();
    }
    let magnitude = value.abs();
    let text = if magnitude >= 100.0 {
        group(magnitude.round() as i64)
    } else {
        let decimals = if magnitude >= 10.0 { 1 } else { 2 };
        let fixed = format!("{:.*}", decimals, magnitude);
        let trimmed = fixed.trim_end_matches('0').trim_end_matches('.');
        if trimmed == "0" && magnitude > 0.0 {
            magnitude.to_string()
        } else {
            trimmed.to_string()
        }
    };
    if value < 0.0 && text != "0" {
        format!("-{text}")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_grouped_and_sizes_read_as_postgres_writes_them() {
        assert_eq!(group(20_000), "20,000");
        assert_eq!(group(723), "723");
        assert_eq!(group(0), "0");
        assert_eq!(group(-1_234_567), "-1,234,567");
        assert_eq!(group(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(bytes(8192), "8 kB");
        assert_eq!(bytes(0), "0 kB");
        assert_eq!(bytes(1_000_000), "976 kB");
        assert_eq!(bytes(3_145_728), "3.0 MB");
    }

    #[test]
    fn numbers_in_sentences_have_few_decimals_and_never_read_zero_when_not_zero() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(9.876), "9.88");
        assert_eq!(number(12.34), "12.3");
        assert_eq!(number(231.48), "231");
        assert_eq!(number(1_600.0), "1,600");
        assert_eq!(number(86_400_000.0), "86,400,000");
        assert_eq!(number(-1_234.5), "-1,235");
        assert_eq!(number(0.001), "0.001");
        assert_eq!(number(-0.001), "-0.001");
        assert_eq!(number(f64::NAN), "–");
    }
}
