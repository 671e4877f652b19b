-- wallet_post: the ledger's one-round-trip executor (PostgreSQL only), and wallet_refuse,
-- the refusal it raises. What it does, step by step, and how Python calls it:
-- wallet/migrations/0003_postgresql_ledger_post_function.py (which loads this file) and
-- wallet/executor_pg.py. {{user_table}} is filled in with the user model's table, quoted,
-- {{max_amount}} with wallet.inputs.MAX_AMOUNT (the most a wallet or escrow may hold).
-- To change it: edit this file and add a migration that runs it again (CREATE OR REPLACE;
-- a changed signature: drop the old one there). tests/wallet/test_sql_source.py checks that
-- the database runs what this file says.

CREATE OR REPLACE FUNCTION wallet_refuse(p_detail json) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger refusal: %', p_detail->>'code'
        USING ERRCODE = 'WL001', DETAIL = p_detail::text;
END;
$$;

CREATE OR REPLACE FUNCTION wallet_post(
    p_write boolean,
    p_key text, p_kind text, p_reference text, p_request text, p_request_hash text,
    p_memo text, p_details text, p_reverses_id bigint, p_created_at timestamptz,
    p_refs text[], p_create_refs text[], p_create_kinds text[], p_create_owners bigint[],
    p_rule text, p_legs_refs text[], p_legs_amounts bigint[],
    p_escrow text, p_user bigint, p_amount bigint, p_payees bigint[], p_payee_amounts bigint[],
    p_house text, p_house_fee bigint, p_close text[], p_stake_kinds text[],
    OUT status text, OUT txn_id bigint
) LANGUAGE plpgsql
-- Every statement below is an index lookup or a small write: one generic plan each, made
-- once per connection. Left to "auto", PostgreSQL re-plans several of them on every call
-- (measured: about 30% of the function's CPU).
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    r record;
    v_ids bigint[] := '{}';
    v_refs text[] := '{}';
    v_kinds text[] := '{}';
    v_bal bigint[] := '{}';
    v_closed boolean[] := '{}';
    v_new bigint[];
    v_new_closed boolean[];
    v_legs_refs text[] := '{}';
    v_legs_amounts bigint[] := '{}';
    v_e_acc bigint[] := '{}';
    v_e_amt bigint[] := '{}';
    v_e_after bigint[] := '{}';
    v_users bigint[];
    v_amounts bigint[];
    v_i int;
    v_j int;
    v_esc int;
    v_staked bigint;
    v_give bigint;
    v_total bigint;
BEGIN
    -- 1. lock what exists, in id order
    FOR r IN SELECT a.id, a.reference, a.kind, a.balance, a.closed FROM wallet_account a
              WHERE a.reference = ANY (p_refs) ORDER BY a.id FOR UPDATE
    LOOP
        v_ids := v_ids || r.id; v_refs := v_refs || r.reference::text;
        v_kinds := v_kinds || r.kind::text; v_bal := v_bal || r.balance;
        v_closed := v_closed || r.closed;
    END LOOP;

    -- 2. the idempotency key
    SELECT t.id, t.request_hash, t.kind, t.reference INTO r
      FROM wallet_transaction t WHERE t.idempotency_key = p_key;
    IF FOUND THEN
        IF r.request_hash <> p_request_hash THEN
            PERFORM wallet_refuse(json_build_object(
                'code', 'conflict', 'kind', r.kind, 'reference', r.reference));
        END IF;
        status := 'replay'; txn_id := r.id;
        RETURN;
    END IF;

    -- 3. create the missing accounts that may be created, then lock again
    IF cardinality(v_ids) < cardinality(p_refs) THEN
        FOR v_i IN 1 .. cardinality(p_refs) LOOP
            CONTINUE WHEN p_refs[v_i] = ANY (v_refs);
            v_j := array_position(p_create_refs, p_refs[v_i]);
            IF v_j IS NULL THEN
                PERFORM wallet_refuse(json_build_object('code', 'unknown', 'ref', p_refs[v_i]));
            END IF;
            IF p_create_kinds[v_j] = 'wallet'
               AND NOT EXISTS (SELECT 1 FROM {{user_table}} u WHERE u.id = p_create_owners[v_j]) THEN
                PERFORM wallet_refuse(json_build_object(
                    'code', 'unknown_user', 'user', p_create_owners[v_j]));
            END IF;
            INSERT INTO wallet_account (kind, reference, owner_id, balance, closed, created_at)
            VALUES (p_create_kinds[v_j], p_refs[v_i], p_create_owners[v_j], 0, false, now())
            ON CONFLICT DO NOTHING;
        END LOOP;
        v_ids := '{}'; v_refs := '{}'; v_kinds := '{}'; v_bal := '{}'; v_closed := '{}';
        FOR r IN SELECT a.id, a.reference, a.kind, a.balance, a.closed FROM wallet_account a
                  WHERE a.reference = ANY (p_refs) ORDER BY a.id FOR UPDATE
        LOOP
            v_ids := v_ids || r.id; v_refs := v_refs || r.reference::text;
            v_kinds := v_kinds || r.kind::text; v_bal := v_bal || r.balance;
            v_closed := v_closed || r.closed;
        END LOOP;
    END IF;

    -- 4. the rule, under the locks
    IF p_escrow IS NOT NULL THEN
        v_esc := array_position(v_refs, p_escrow);
        IF p_rule <> 'legs' AND v_closed[v_esc] THEN
            PERFORM wallet_refuse(json_build_object('code', 'closed', 'escrow', p_escrow));
        END IF;
    END IF;
    IF p_rule = 'legs' OR p_rule = 'pay_in' THEN
        IF p_reverses_id IS NOT NULL
           AND EXISTS (SELECT 1 FROM wallet_transaction t WHERE t.reverses_id = p_reverses_id) THEN
            PERFORM wallet_refuse(json_build_object('code', 'reversed'));
        END IF;
        v_legs_refs := p_legs_refs; v_legs_amounts := p_legs_amounts;
    ELSIF p_rule = 'refund' THEN
        SELECT s.staked INTO v_staked FROM wallet_staked(p_escrow, p_stake_kinds, ARRAY[p_user]) s;
        v_staked := coalesce(v_staked, 0);
        IF v_staked <= 0 THEN
            PERFORM wallet_refuse(json_build_object('code', 'nothing', 'user', p_user));
        END IF;
        v_give := coalesce(p_amount, v_staked);
        IF v_give > v_staked THEN
            PERFORM wallet_refuse(json_build_object(
                'code', 'over', 'user', p_user, 'staked', v_staked, 'asked', v_give));
        END IF;
        v_legs_refs := ARRAY[p_escrow, 'user:' || p_user];
        v_legs_amounts := ARRAY[-v_give, v_give];
    ELSIF p_rule = 'refund_all' THEN
        SELECT coalesce(array_agg(s.user_id ORDER BY s.user_id), '{}'),
               coalesce(array_agg(s.staked ORDER BY s.user_id), '{}')
          INTO v_users, v_amounts
          FROM wallet_staked(p_escrow, p_stake_kinds, NULL) s;
        IF cardinality(v_users) = 0 THEN
            PERFORM wallet_refuse(json_build_object('code', 'empty'));
        END IF;
        IF v_users <> p_payees THEN
            PERFORM wallet_refuse(json_build_object('code', 'stakers_changed'));
        END IF;
        SELECT array_agg('user:' || u ORDER BY n) INTO v_legs_refs
          FROM unnest(v_users) WITH ORDINALITY AS x(u, n);
        v_legs_refs := v_legs_refs || p_escrow;
        v_legs_amounts := v_amounts || (-(SELECT sum(a) FROM unnest(v_amounts) a))::bigint;
    ELSIF p_rule = 'payout' THEN
        SELECT coalesce(array_agg(p ORDER BY p), '{}') INTO v_users
          FROM unnest(p_payees, p_payee_amounts) AS x(p, a)
         WHERE a <> 0
           AND p NOT IN (SELECT s.user_id FROM wallet_staked(p_escrow, p_stake_kinds, NULL) s);
        IF cardinality(v_users) > 0 THEN
            PERFORM wallet_refuse(json_build_object('code', 'strangers', 'users', v_users));
        END IF;
        IF v_bal[v_esc] = 0 THEN
            PERFORM wallet_refuse(json_build_object('code', 'held_zero'));
        END IF;
        v_total := p_house_fee + coalesce((SELECT sum(a) FROM unnest(p_payee_amounts) a), 0);
        IF v_total <> v_bal[v_esc] THEN
            PERFORM wallet_refuse(json_build_object(
                'code', 'total', 'held', v_bal[v_esc], 'total', v_total));
        END IF;
        SELECT coalesce(array_agg('user:' || p ORDER BY n), '{}'),
               coalesce(array_agg(a ORDER BY n), '{}')
          INTO v_legs_refs, v_legs_amounts
          FROM unnest(p_payees, p_payee_amounts) WITH ORDINALITY AS x(p, a, n);
        IF p_house_fee <> 0 THEN
            v_legs_refs := v_legs_refs || p_house; v_legs_amounts := v_legs_amounts || p_house_fee;
        END IF;
        v_legs_refs := v_legs_refs || p_escrow; v_legs_amounts := v_legs_amounts || -v_bal[v_esc];
    ELSE
        RAISE EXCEPTION 'wallet_post: unknown rule %', p_rule;
    END IF;

    -- 5. the legs: balanced, no wallet or escrow below zero, closed escrows at zero
    v_new := v_bal;
    v_total := 0;
    FOR v_i IN 1 .. cardinality(v_legs_refs) LOOP
        CONTINUE WHEN v_legs_amounts[v_i] = 0;
        v_j := array_position(v_refs, v_legs_refs[v_i]);
        IF v_j IS NULL THEN
            PERFORM wallet_refuse(json_build_object('code', 'unbalanced'));
        END IF;
        v_new[v_j] := v_new[v_j] + v_legs_amounts[v_i];
        v_total := v_total + v_legs_amounts[v_i];
        v_e_acc := v_e_acc || v_ids[v_j];
        v_e_amt := v_e_amt || v_legs_amounts[v_i];
        v_e_after := v_e_after || v_new[v_j];
    END LOOP;
    IF v_total <> 0 OR cardinality(v_e_acc) < 2 THEN
        PERFORM wallet_refuse(json_build_object('code', 'unbalanced'));
    END IF;
    v_new_closed := v_closed;
    FOR v_i IN 1 .. cardinality(v_ids) LOOP
        IF v_kinds[v_i] <> 'system' AND v_new[v_i] < 0 THEN
            PERFORM wallet_refuse(json_build_object(
                'code', 'insufficient', 'ref', v_refs[v_i], 'held', v_bal[v_i],
                'needed', v_bal[v_i] - v_new[v_i]));
        END IF;
        IF v_kinds[v_i] <> 'system' AND v_new[v_i] > {{max_amount}} THEN
            PERFORM wallet_refuse(json_build_object(
                'code', 'too_much', 'ref', v_refs[v_i], 'held', v_bal[v_i],
                'balance', v_new[v_i]));
        END IF;
        IF v_refs[v_i] = ANY (p_close) THEN
            IF v_new[v_i] <> 0 THEN
                PERFORM wallet_refuse(json_build_object(
                    'code', 'would_keep', 'ref', v_refs[v_i], 'balance', v_new[v_i]));
            END IF;
            v_new_closed[v_i] := true;
        ELSE
            v_new_closed[v_i] := v_closed[v_i] AND v_new[v_i] = 0;
        END IF;
    END LOOP;
    IF NOT p_write THEN
        status := 'ready';
        RETURN;
    END IF;

    -- 6. the write
    INSERT INTO wallet_transaction
        (idempotency_key, kind, reference, request, request_hash, memo, details,
         reverses_id, created_at)
    VALUES (p_key, p_kind, p_reference, p_request::jsonb, p_request_hash, p_memo,
            p_details::jsonb, p_reverses_id, p_created_at)
    RETURNING id INTO txn_id;
    INSERT INTO wallet_entry (transaction_id, account_id, amount, balance_after)
    SELECT txn_id, e.account_id, e.amount, e.balance_after
      FROM unnest(v_e_acc, v_e_amt, v_e_after) WITH ORDINALITY
               AS e(account_id, amount, balance_after, n)
     ORDER BY e.n;
    UPDATE wallet_account AS a SET balance = u.balance, closed = u.closed
      FROM unnest(v_ids, v_new, v_new_closed) AS u(id, balance, closed)
     WHERE a.id = u.id AND (a.balance <> u.balance OR a.closed <> u.closed);
    status := 'ok';
END;
$$;
