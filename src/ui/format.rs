//! How numbers, sizes and durations read on screen: the one home for them.

/// 20000 → "20,000".
pub fn group(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// 8192 → "8 KB", 3_145_728 → "3.0 MB" (1 KB = 1,024 bytes, as PostgreSQL's sizes count).
pub fn bytes(n: i64) -> String {
    let n = n as f64;
    if n >= 1024.0 * 1024.0 {
        format!("{:.1} MB", n / 1024.0 / 1024.0)
    } else if n > 0.0 {
        format!("{:.0} KB", n / 1024.0)
    } else {
        "0".into()
    }
}

/// Milliseconds without a unit: two decimals under 10, none above (0.09, 1.90, 723).
pub fn ms(v: f64) -> String {
    if v < 10.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.0}")
    }
}

/// Milliseconds as seconds with one decimal: 2345.0 → "2.3".
pub fn seconds(ms: f64) -> String {
    format!("{:.1}", ms / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_sized_and_timed() {
        assert_eq!(group(20_000), "20,000");
        assert_eq!(group(723), "723");
        assert_eq!(group(-1_234_567), "-1,234,567");
        assert_eq!(bytes(8192), "8 KB");
        assert_eq!(bytes(3_145_728), "3.0 MB");
        assert_eq!(bytes(0), "0");
        assert_eq!(ms(0.09), "0.09");
        assert_eq!(ms(723.4), "723");
        assert_eq!(seconds(2345.0), "2.3");
    }
}
