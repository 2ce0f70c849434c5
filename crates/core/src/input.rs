//! Numbers as a learner types them into the labs' fields: one reading for every lab, each
//! lab saying in its own words what was wrong.

/// Why a typed number was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused<T> {
    /// Not a whole number of the field's type (the text as typed, trimmed).
    NotANumber(String),
    /// A whole number outside the allowed range.
    OutOfRange(T),
}

/// A whole number within `min..=max`, read as a person types it: spaces around it are
/// ignored, and so are `,` and `_` between digits ("20,000").
pub fn whole_in<T>(text: &str, min: T, max: T) -> Result<T, Refused<T>>
where
    T: std::str::FromStr + PartialOrd + Copy,
{
    let typed = text.trim();
    let cleaned: String = typed.chars().filter(|c| !matches!(c, ',' | '_')).collect();
    match cleaned.parse::<T>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        Ok(n) => Err(Refused::OutOfRange(n)),
        Err(_) => Err(Refused::NotANumber(typed.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_read_as_typed_and_refused_with_the_reason() {
        assert_eq!(whole_in(" 20,000 ", 1, 100_000), Ok(20_000));
        assert_eq!(whole_in("1_500", 1, 2_000), Ok(1_500));
        assert_eq!(whole_in("-3", -100, 100), Ok(-3));
        assert_eq!(whole_in("0", 1, 10), Err(Refused::OutOfRange(0)));
        assert_eq!(
            whole_in("ten", 1, 10),
            Err(Refused::NotANumber("ten".into()))
        );
        assert_eq!(
            whole_in("1.5", 1, 10),
            Err(Refused::NotANumber("1.5".into()))
        );
        assert_eq!(whole_in("", 1, 10), Err(Refused::NotANumber(String::new())));
        assert_eq!(
            whole_in("18,446,744,073,709,551,615", 0, u64::MAX),
            Ok(u64::MAX)
        );
        assert_eq!(
            whole_in("-1", 0u64, 9),
            Err(Refused::NotANumber("-1".into()))
        );
    }
}
