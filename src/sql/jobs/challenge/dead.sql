-- Challenge jobs-dead: a job that used up its attempts is dead.
select exists (select 1 from jobs where status = 'dead') as solved
