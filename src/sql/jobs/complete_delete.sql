-- §2's other way to complete ("완료는 상태를 바꾸거나 행을 지웁니다"): delete the job's row.
-- Same guard as complete.sql: a worker whose lease ran out and whose job was claimed again
-- (attempts moved on) deletes 0 rows.
delete from jobs
 where id = $1 and attempts = $2 and status = 'running'
