-- In-flight demo, step 1 of 3: open a transaction on the lab's one session.
begin
