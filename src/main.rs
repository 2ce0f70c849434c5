fn main() {
    queue_lab::start();
}
