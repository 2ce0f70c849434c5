-- PgQue's four scheduled jobs on the lab clock: period, whether scheduled, last and next run
select job_name, extract(epoch from schedule)::int as every_s, scheduled,
       to_char(last_run, 'HH24:MI:SS.MS') as last_run, to_char(next_run, 'HH24:MI:SS.MS') as next_run,
       runs, total
  from pgque.lab_job order by job_order
