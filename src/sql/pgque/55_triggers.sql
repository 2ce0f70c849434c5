-- Change-data-capture triggers: PgQue's jsontriga, logutriga and sqltriga
-- (PgQ's, in schema pgque). Attached to a table, each puts one event per row
-- change into a queue, through insert_event (20_send.sql): so the event is in
-- the changing transaction, and a rollback takes it back with the change.
--
--   create trigger t_cdc after insert or update or delete on orders
--     for each row execute procedure pgque.jsontriga('orders_cdc');
--
-- The three differ only in how they write the event:
--   jsontriga  ev_type  {"op":"INSERT","table":["public","orders"],"pkey":["id"]}
--              ev_data  {"id":1,"note":"a b"}  (numbers, booleans, dates and
--                       timestamps as JSON values, every other type as a string)
--   logutriga  ev_type  I:id / U:id / D:id (the primary key's columns after ':')
--              ev_data  id=1&note=a+b  (URL-encoded; a NULL column is its bare
--                       name, with no '=')
--   sqltriga   ev_type  I / U / D
--              ev_data  (id,note) values ('1','a b')   for INSERT
--                       note='a b' where id='1'         for UPDATE (changed columns)
--                       id='1'                          for DELETE
-- All three: ev_extra1 is schema.table (not quoted). A TRUNCATE trigger
-- (for each statement) sends ev_type R ('TRUNCATE' in jsontriga's JSON) with
-- ev_data '' ('{}' for jsontriga).
--
-- Trigger arguments: the queue name first, then any of these, in any order:
--   SKIP (or skip)   a BEFORE trigger drops the change itself: the event is
--                    sent, the row is not written
--   backup           UPDATE: the old row, written the same way, in ev_extra2
--   deny             every change raises: 'Table ''s.t'' to queue ''q'':
--                    change not allowed (UPDATE)'
--   ignore=c1,c2     those columns are left out of ev_data; an UPDATE that
--                    changed only them sends nothing
--   pkey=c1,c2       the key columns, instead of the table's primary key
--   when=EXPR        no event when EXPR (SQL over the row's columns) is not true
--   ev_type=EXPR, ev_extra1=EXPR .. ev_extra4=EXPR
--                    that field is EXPR's value for the row (NEW; OLD for DELETE)
-- A column named _pgq_ev_type or _pgq_ev_extra1.._pgq_ev_extra4 is not sent as
-- data: its value becomes that event field (an argument above wins over it).
-- When session_replication_role is 'local', the triggers send nothing.
--
-- Errors, PgQue's words, all P0001 (raise_exception):
--   'Trigger needs queue name'            no argument
--   'bad argument: <arg>'                 an argument not in the list above
--   'Update/Delete on table without pkey' UPDATE or DELETE, no key columns
--   'primary key update not allowed'      an UPDATE changed a key column
--   'queue not found: <queue>'            (insert_event) no such queue
--
-- Quoting: column names reach SQL through format(%I), fixed texts through
-- %L, row values as parameters ($1 the row, $2 the new row). The one text
-- that is spliced is a when=/ev_*= expression: that argument is SQL by
-- definition, written in CREATE TRIGGER by the table's owner.

-- pgque._urlencode(val text) returns text
--   val  any text
-- Returns val URL-encoded as PgQ's logutriga writes it: letters, digits and
-- '-', '_', '.' kept, a space as '+', every other character as its UTF-8
-- bytes in '%xx' (lowercase hex). '' stays ''; NULL gives NULL.
-- Guarantee: immutable, no error for any text.
create function pgque._urlencode(val text)
returns text
language sql strict immutable as $$
    select coalesce(string_agg(
               case when c ~ '^[-_.a-zA-Z0-9]$' then c
                    when c = ' ' then '+'
                    else regexp_replace(encode(convert_to(c, 'utf8'), 'hex'), '(..)', '%\1', 'g')
               end, '' order by i), '')
      from regexp_split_to_table(val, '') with ordinality as s(c, i)
$$;

-- pgque._cdc_event(i_format text, i_args text[], i_relid oid, i_schema text,
--                  i_table text, i_op text, i_old anyelement, i_new anyelement)
--                  returns boolean
--   i_format  'json', 'logu' or 'sql': which trigger calls
--   i_args    the trigger's arguments (TG_ARGV): queue name, then options
--   i_relid, i_schema, i_table   the table (TG_RELID, TG_TABLE_SCHEMA, TG_TABLE_NAME)
--   i_op      TG_OP: INSERT, UPDATE, DELETE or TRUNCATE
--   i_old, i_new  the trigger's OLD and NEW rows (NULL where TG_OP has none)
-- Returns true when the trigger must drop the change (SKIP was given and the
-- change was not left alone for session_replication_role 'local').
-- Guarantee: at most one insert_event into the queue, in the caller's
-- transaction; nothing else is written. Errors: see the file's header.
create function pgque._cdc_event(
    i_format text, i_args text[], i_relid oid, i_schema text, i_table text,
    i_op text, i_old anyelement, i_new anyelement)
returns boolean
language plpgsql as $$
declare
    v_nargs int := coalesce(cardinality(i_args), 0);
    v_first int := coalesce(array_lower(i_args, 1), 0);
    v_queue text;
    v_skip boolean := false;
    v_backup boolean := false;
    v_deny boolean := false;
    v_ignore text[] := '{}';
    v_pkey text[];
    v_keys text[] := '{}';       -- event fields set by a magic column or argument
    v_exprs text[] := '{}';      -- their SQL over the row "r", in order
    v_arg text;
    v_pair text[];
    col record;
    v_data text[] := '{}';       -- the columns written to ev_data, in column order
    v_types oid[] := '{}';
    v_compare text[] := '{}';    -- one "changed?" test per data column, then per ignored one
    v_changed boolean[];
    v_render text;
    v_type text;
    v_new_data text;
    v_old_data text;
    v_extra text[] := array[i_schema || '.' || i_table, null, null, null];
    v_vals text[];
begin
    if v_nargs < 1 then
        raise exception 'Trigger needs queue name';
    end if;
    v_queue := i_args[v_first];

    for k in 1 .. v_nargs - 1 loop
        v_arg := i_args[v_first + k];
        if v_arg in ('skip', 'SKIP') then
            v_skip := true;
        elsif v_arg = 'backup' then
            v_backup := true;
        elsif v_arg = 'deny' then
            v_deny := true;
        else
            v_pair := regexp_match(v_arg, '^([^=]+)=(.*)$');
            if v_pair[1] = 'pkey' then
                v_pkey := string_to_array(v_pair[2], ',');
            elsif v_pair[1] = 'ignore' then
                v_ignore := string_to_array(v_pair[2], ',');
            elsif v_pair[1] ~ '^ev_(type|extra[1-4])$' then
                v_keys := v_keys || v_pair[1];
                v_exprs := v_exprs || format('(%s)::text', v_pair[2]);
            elsif v_pair[1] = 'when' then
                v_keys := v_keys || 'when'::text;
                v_exprs := v_exprs || format('case when (%s)::boolean then %L end', v_pair[2], 'proceed');
            else
                raise exception 'bad argument: %', v_arg;
            end if;
        end if;
    end loop;

    if v_pkey is null then
        select coalesce(array_agg(a.attname::text order by k.n), '{}') into v_pkey
          from pg_index i
               cross join unnest(i.indkey) with ordinality as k(attnum, n)
               join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
         where i.indrelid = i_relid and i.indisprimary and not a.attisdropped;
    end if;
    if cardinality(v_pkey) = 0 and i_op in ('UPDATE', 'DELETE') then
        raise exception 'Update/Delete on table without pkey';
    end if;

    v_type := case i_format
        when 'json' then (select to_json(t)::text
                            from (select i_op as op, array[i_schema, i_table] as "table",
                                         v_pkey as pkey) t)
        when 'logu' then case i_op when 'TRUNCATE' then 'R'
                                   else left(i_op, 1) || ':' || array_to_string(v_pkey, ',') end
        else case i_op when 'TRUNCATE' then 'R' else left(i_op, 1) end
    end;

    if current_setting('session_replication_role') = 'local' then
        return false;
    elsif v_deny then
        raise exception 'Table ''%.%'' to queue ''%'': change not allowed (%)',
            i_schema, i_table, v_queue, i_op;
    elsif i_op = 'TRUNCATE' then
        perform pgque.insert_event(v_queue, v_type, case i_format when 'json' then '{}' else '' end,
                                   v_extra[1], null, null, null);
        return v_skip;
    end if;

    -- The columns: ignored ones are only compared, magic ones become event
    -- fields (before the arguments, which win), the rest are the data.
    for col in
        select a.attname::text as name, a.atttypid as typ
          from pg_attribute a
         where a.attrelid = i_relid and a.attnum > 0 and not a.attisdropped
         order by a.attnum
    loop
        if col.name = any (v_ignore) then
            continue;
        elsif col.name in ('_pgq_ev_type', '_pgq_ev_extra1', '_pgq_ev_extra2',
                           '_pgq_ev_extra3', '_pgq_ev_extra4') then
            v_keys := substr(col.name, 6) || v_keys;
            v_exprs := format('r.%I::text', col.name) || v_exprs;
        else
            v_data := v_data || col.name;
            v_types := v_types || col.typ;
            -- a key column by its type's equality, any other by its text
            v_compare := v_compare || case when col.name = any (v_pkey)
                then format('o.%I is distinct from n.%I', col.name, col.name)
                else format('o.%I::text is distinct from n.%I::text', col.name, col.name) end;
        end if;
    end loop;

    if i_op = 'UPDATE' then
        select v_compare || coalesce(array_agg(format('o.%I is distinct from n.%I', a.attname, a.attname)
                                               order by a.attnum), '{}')
          into v_compare
          from pg_attribute a
         where a.attrelid = i_relid and a.attnum > 0 and not a.attisdropped
           and a.attname::text = any (v_ignore);
        execute format('select array[%s]::boolean[] from (select $1.*) o, (select $2.*) n',
                       array_to_string(v_compare, ', '))
            into v_changed using i_old, i_new;
        for k in 1 .. cardinality(v_data) loop
            if v_data[k] = any (v_pkey) and v_changed[k] then
                raise exception 'primary key update not allowed';
            end if;
        end loop;
    end if;

    v_render := pgque._cdc_render(i_format, i_op, v_data, v_types, v_pkey, v_changed);
    execute v_render into v_new_data using case i_op when 'DELETE' then i_old else i_new end;
    if i_op = 'UPDATE' and (v_backup or cardinality(v_ignore) > 0) then
        execute v_render into v_old_data using i_old;
        -- only ignored columns changed: nothing to send
        if v_old_data = v_new_data and true = any (v_changed[cardinality(v_data) + 1 :]) then
            return v_skip;
        end if;
        if v_backup then
            v_extra[2] := v_old_data;
        end if;
    end if;

    if cardinality(v_keys) > 0 then
        execute format('select array[%s]::text[] from (select $1.*) r', array_to_string(v_exprs, ', '))
            into v_vals using case i_op when 'DELETE' then i_old else i_new end;
        for k in 1 .. cardinality(v_keys) loop
            case v_keys[k]
                when 'when' then
                    if v_vals[k] is null then
                        return v_skip;
                    end if;
                when 'ev_type' then
                    v_type := v_vals[k];
                else
                    v_extra[substr(v_keys[k], 9)::int] := v_vals[k];
            end case;
        end loop;
    end if;

    perform pgque.insert_event(v_queue, v_type, v_new_data,
                               v_extra[1], v_extra[2], v_extra[3], v_extra[4]);
    return v_skip;
end;
$$;

-- pgque._cdc_render(i_format text, i_op text, i_cols text[], i_types oid[],
--                   i_pkey text[], i_changed boolean[]) returns text
--   i_format   'json', 'logu' or 'sql'
--   i_op       INSERT, UPDATE or DELETE
--   i_cols, i_types  the data columns and their types, in column order
--   i_pkey     the key columns
--   i_changed  UPDATE: for each data column, whether the update changed it
-- Returns a SELECT that, run with one row as $1, gives that row's ev_data.
-- Guarantee: writes nothing; names are quoted with %I, texts with %L.
create function pgque._cdc_render(
    i_format text, i_op text, i_cols text[], i_types oid[], i_pkey text[], i_changed boolean[])
returns text
language plpgsql stable as $$
declare
    v_val text;                  -- the column's value as text (SQL over "r")
    v_items text[] := '{}';      -- json and logu pairs; sql: INSERT values, UPDATE set list
    v_names text[] := '{}';      -- sql INSERT: the column names
    v_where text[] := '{}';      -- sql UPDATE and DELETE: the key's conditions
    v_first_key text;            -- sql UPDATE with no changed column sets the first key to itself
    v_is_key boolean;
begin
    for k in 1 .. coalesce(cardinality(i_cols), 0) loop
        v_is_key := i_cols[k] = any (i_pkey);
        if i_format = 'json' then
            v_val := case when i_types[k] in ('timestamptz'::regtype, 'timestamp'::regtype, 'int8'::regtype,
                                              'int4'::regtype, 'int2'::regtype, 'date'::regtype, 'bool'::regtype)
                          then format('to_json(r.%I)::text', i_cols[k])
                          else format('to_json(r.%I::text)::text', i_cols[k]) end;
            v_items := v_items || format('%L || coalesce(%s, %L)', to_json(i_cols[k])::text || ':', v_val, 'null');
            continue;
        end if;
        v_val := case when i_types[k] = 'bool'::regtype
                      then format('case r.%I when true then %L when false then %L end', i_cols[k], 't', 'f')
                      else format('r.%I::text', i_cols[k]) end;
        if i_format = 'logu' then
            v_items := v_items || format('%L || coalesce(%L || pgque._urlencode(%s), %L)',
                                         pgque._urlencode(i_cols[k]), '=', v_val, '');
        elsif i_op = 'INSERT' then
            v_names := v_names || quote_ident(i_cols[k]);
            v_items := v_items || format('coalesce(quote_literal(%s), %L)', v_val, 'null');
        elsif v_is_key then
            v_where := v_where || format('%L || coalesce(%L || quote_literal(%s), %L)',
                                         quote_ident(i_cols[k]), '=', v_val, ' is null');
            if v_first_key is null then
                v_first_key := format('%L || quote_nullable(%s)', quote_ident(i_cols[k]) || '=', v_val);
            end if;
        elsif i_op = 'UPDATE' and i_changed[k] then
            v_items := v_items || format('%L || quote_nullable(%s)', quote_ident(i_cols[k]) || '=', v_val);
        end if;
    end loop;

    return 'select ' || case
        when i_format = 'json' then
            format('%L || array_to_string(array[%s]::text[], %L) || %L',
                   '{', array_to_string(v_items, ', '), ',', '}')
        when i_format = 'logu' then
            format('array_to_string(array[%s]::text[], %L)', array_to_string(v_items, ', '), '&')
        when i_op = 'INSERT' then
            format('%L || array_to_string(array[%s]::text[], %L) || %L',
                   '(' || array_to_string(v_names, ',') || ') values (',
                   array_to_string(v_items, ', '), ',', ')')
        when i_op = 'UPDATE' then
            format('array_to_string(array[%s]::text[], %L) || %L || array_to_string(array[%s]::text[], %L)',
                   coalesce(nullif(array_to_string(v_items, ', '), ''), v_first_key), ',', ' where ',
                   array_to_string(v_where, ', '), ' and ')
        else
            format('array_to_string(array[%s]::text[], %L)', array_to_string(v_where, ', '), ' and ')
    end || ' from (select $1.*) r';
end;
$$;

-- pgque.jsontriga() returns trigger
-- pgque.logutriga() returns trigger
-- pgque.sqltriga() returns trigger
--   Trigger arguments: the queue name, then the options in the file's header.
-- Returns, as PgQ's: NULL for an AFTER or TRUNCATE trigger and for SKIP;
-- else the row (OLD for DELETE, NEW otherwise), so a BEFORE trigger lets
-- the change through unchanged.
-- Guarantee: one event per changed row (none for 'local' replication, an
-- UPDATE of ignored columns only, or a false when=), in the caller's
-- transaction. Errors: see the file's header.
-- The three are one body with the format's name in it (json, logu, sql).
do $do$
declare
    v_format text;
begin
    foreach v_format in array array['json', 'logu', 'sql'] loop
        execute format($fn$
            create function pgque.%I()
            returns trigger
            language plpgsql as $body$
            begin
                if pgque._cdc_event(%L, TG_ARGV, TG_RELID, TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_OP, OLD, NEW)
                   or TG_WHEN = 'AFTER' or TG_OP = 'TRUNCATE' then
                    return null;
                end if;
                return case TG_OP when 'DELETE' then OLD else NEW end;
            end;
            $body$
        $fn$, v_format || 'triga', v_format);
    end loop;
end;
$do$;
