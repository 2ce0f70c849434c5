fn main() {
    // Mounts the app, which removes the static first screen (index.html) in the same task.
    queue_lab::start();
}
