fn main() {
    queue_lab::start();
    // The static first screen (index.html) gives way to the app that has just mounted, in the
    // same task: no frame shows both.
    if let Some(first) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("first-screen"))
    {
        first.remove();
    }
}
