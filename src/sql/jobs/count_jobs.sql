select count(*) as total,
       count(*) filter (where status = 'ready') as ready,
       count(*) filter (where status = 'running') as running,
       count(*) filter (where status = 'done') as done,
       count(*) filter (where status = 'dead') as dead
  from jobs
