//! Little-endian bytes for the codec: a writer, a reader that says what ran short, and
//! [`Wire`], a value's way across in both directions.

#[derive(Default)]
pub(crate) struct Writer(Vec<u8>);

impl Writer {
    pub fn into_bytes(self) -> Vec<u8> {
        self.0
    }
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    pub fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// The bits, so a figure arrives exactly as computed.
    pub fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
    pub fn count(&mut self, n: usize) {
        self.u32(n as u32);
    }
    pub fn opt_u32(&mut self, v: Option<u32>) {
        match v {
            Some(v) => {
                self.u8(1);
                self.u32(v);
            }
            None => self.u8(0),
        }
    }
    pub fn str(&mut self, s: &str) {
        self.count(s.len());
        self.0.extend_from_slice(s.as_bytes());
    }
}

pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, at: 0 }
    }

    fn take<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let end = self.at + N;
        let slice = self.bytes.get(self.at..end).ok_or_else(|| {
            format!(
                "the message ends at byte {}, {N} more expected",
                self.bytes.len()
            )
        })?;
        self.at = end;
        Ok(slice.try_into().expect("N bytes"))
    }

    pub fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take::<1>()?[0])
    }
    pub fn u16(&mut self) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take()?))
    }
    pub fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    pub fn u64(&mut self) -> Result<u64, String> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    pub fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_bits(self.u64()?))
    }
    pub fn opt_u32(&mut self) -> Result<Option<u32>, String> {
        match self.u8()? {
            0 => Ok(None),
            _ => Ok(Some(self.u32()?)),
        }
    }
    pub fn str(&mut self) -> Result<String, String> {
        let n = self.u32()? as usize;
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or("a text runs past the message's end")?;
        let s = String::from_utf8_lossy(&self.bytes[self.at..end]).into_owned();
        self.at = end;
        Ok(s)
    }
    /// A count, then that many items. The count is checked against the bytes left, so a bad
    /// count cannot ask for a huge allocation.
    pub fn list<T>(
        &mut self,
        mut item: impl FnMut(&mut Self) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let n = self.u32()? as usize;
        let mut v = Vec::with_capacity(n.min(self.bytes.len() - self.at));
        for _ in 0..n {
            v.push(item(self)?);
        }
        Ok(v)
    }
    pub fn end(&self) -> Result<(), String> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(format!("{} bytes left over", self.bytes.len() - self.at))
        }
    }
}

/// A value that crosses as bytes: `put` writes it, `get` reads back what `put` wrote.
pub(crate) trait Wire: Sized {
    fn put(&self, w: &mut Writer);
    fn get(r: &mut Reader) -> Result<Self, String>;
}

/// The value's bytes.
pub(crate) fn to_bytes(v: &impl Wire) -> Vec<u8> {
    let mut w = Writer::default();
    v.put(&mut w);
    w.into_bytes()
}

/// The value `bytes` hold, refused when they run short or past it.
pub(crate) fn from_bytes<T: Wire>(bytes: &[u8]) -> Result<T, String> {
    let mut r = Reader::new(bytes);
    let v = T::get(&mut r)?;
    r.end()?;
    Ok(v)
}

/// The numbers, each as the writer and reader write and read it.
macro_rules! wire_number {
    ($($ty:ident)*) => {$(
        impl Wire for $ty {
            fn put(&self, w: &mut Writer) {
                w.$ty(*self);
            }
            fn get(r: &mut Reader) -> Result<Self, String> {
                r.$ty()
            }
        }
    )*};
}
wire_number!(u8 u16 u32 u64 f64);

/// `1` for true, `0` for false (any other byte reads as true).
impl Wire for bool {
    fn put(&self, w: &mut Writer) {
        w.u8(u8::from(*self));
    }
    fn get(r: &mut Reader) -> Result<Self, String> {
        Ok(r.u8()? != 0)
    }
}

/// `0`, or `1` then the value.
impl Wire for Option<u32> {
    fn put(&self, w: &mut Writer) {
        w.opt_u32(*self);
    }
    fn get(r: &mut Reader) -> Result<Self, String> {
        r.opt_u32()
    }
}

/// A count, then the items.
impl<T: Wire> Wire for Vec<T> {
    fn put(&self, w: &mut Writer) {
        w.count(self.len());
        for item in self {
            item.put(w);
        }
    }
    fn get(r: &mut Reader) -> Result<Self, String> {
        r.list(T::get)
    }
}
