-- This session's lab time (lab.now(), which now() means in the lab's search path).
select now()::text as now
