-- contract: send and send_batch take jsonb (stored as PostgreSQL's canonical JSON text) or text (stored verbatim), with type 'default' unless given; send_batch returns the ids in input order and stores a NULL element as a NULL payload.
select pgque.create_queue('q');
select pgque.subscribe('q', 'c');
select contract.put('j1', pgque.send('q', '{"b": 2,  "a":1}'::jsonb));
select contract.put('j2', pgque.send('q', 'order.created', '{"id":  42}'::jsonb));
select contract.put('t1', pgque.send('q', '{"b": 2,  "a":1}'));
create table contract.ids as
  select 'jsonb' as kind, pgque.send_batch('q', array['{"z": 1, "y": [1,2]}', null, '"s"']::jsonb[]) as ids
  union all
  select 'jsonb typed', pgque.send_batch('q', 'order.updated', array['{"n":1}']::jsonb[])
  union all
  select 'text', pgque.send_batch('q', array['raw  text', null]::text[])
  union all
  select 'text typed', pgque.send_batch(queue_name := 'q', type_name := 'order.note', payloads := array['n1', 'n2']::text[]);
select contract.eq((select cardinality(ids) from contract.ids where kind = 'jsonb'), 3, 'one id per element');
select contract.eq((select count(distinct id) from contract.ids, unnest(ids) id), 8::bigint, 'eight distinct ids');
select pgque.force_next_tick('q');
select pgque.ticker('q');
create table contract.got_messages as select * from pgque.receive('q', 'c', 100);
select contract.eq((select count(*) from contract.got_messages), 11::bigint, 'every event received');
select contract.eq((select type || ' ' || payload from contract.got_messages where msg_id = contract.got('j1')),
  'default {"a": 1, "b": 2}', 'jsonb send: canonical text, type default');
select contract.eq((select type || ' ' || payload from contract.got_messages where msg_id = contract.got('j2')),
  'order.created {"id": 42}', 'jsonb send with a type');
select contract.eq((select payload from contract.got_messages where msg_id = contract.got('t1')),
  '{"b": 2,  "a":1}', 'text send: verbatim');
-- Each send_batch's events, in input order: payload:type, a NULL element's payload NULL.
select contract.eq((select string_agg(kind || ': ' || events, E'\n' order by kind collate "C")
                      from (select kind, string_agg(coalesce(m.payload, 'NULL') || ':' || m.type, ' | ' order by i.n) as events
                              from contract.ids, unnest(ids) with ordinality i(id, n)
                              join contract.got_messages m on m.msg_id = i.id
                             group by kind) k),
  'jsonb: {"y": [1, 2], "z": 1}:default | NULL:default | "s":default' || E'\n' ||
  'jsonb typed: {"n": 1}:order.updated' || E'\n' ||
  'text: raw  text:default | NULL:default' || E'\n' ||
  'text typed: n1:order.note | n2:order.note',
  'send_batch: jsonb as canonical text, text verbatim, type default unless given (named arguments too), in input order');
select contract.expect_error($$select pgque.send('q', 'not json'::jsonb)$$, '22P02', 'invalid input syntax for type json');
