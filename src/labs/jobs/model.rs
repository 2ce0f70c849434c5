//! L1 model
