//! How numbers, sizes and durations read on screen: the one home for them.

pub use queue_lab_core::format::{bytes, group};

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
    fn times_read_in_milliseconds_and_seconds() {
        assert_eq!(ms(0.09), "0.09");
        assert_eq!(ms(723.4), "723");
        assert_eq!(seconds(2345.0), "2.3");
    }
}
