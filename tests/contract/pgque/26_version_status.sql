-- contract: version() returns the version as text, and status() returns rows (component, status, detail) naming PostgreSQL's version, PgQue's version, the ticker, maintenance, and the numbers of queues and subscriptions.
select contract.eq(pg_typeof(pgque.version())::text, 'text', 'version() is text');
select contract.ok(length(pgque.version()) > 0, 'version() is not empty');
select contract.eq(pg_get_function_result('pgque.status()'::regprocedure), 'TABLE(component text, status text, detail text)',
  'status() result columns');
select contract.eq((select detail from pgque.status() where component = 'postgresql'), version(), 'the postgresql row');
select contract.eq((select status from pgque.status() where component = 'pgque'), 'info', 'the pgque row''s status');
select contract.eq((select detail from pgque.status() where component = 'pgque'), pgque.version(), 'the pgque row: version()');
select contract.eq((select count(*) from pgque.status() where component in ('ticker', 'maintenance')), 2::bigint,
  'a ticker row and a maintenance row');
select contract.eq((select detail from pgque.status() where component = 'queues'), '0 queues configured', 'no queue');
select pgque.create_queue('a');
select pgque.create_queue('b');
select pgque.subscribe('a', 'c1');
select pgque.subscribe('b', 'c1');
select pgque.subscribe('b', 'c2');
select contract.eq((select status || ': ' || detail from pgque.status() where component = 'queues'),
  'info: 2 queues configured', 'the queues row');
select contract.eq((select status || ': ' || detail from pgque.status() where component = 'consumers'),
  'info: 3 active subscriptions', 'the consumers row counts subscriptions');
