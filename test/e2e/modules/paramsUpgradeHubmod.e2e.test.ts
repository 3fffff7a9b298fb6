import { expect } from "chai";
import fs from "node:fs";
import path from "node:path";
import { bech32 } from "bech32";
import { readDevAccounts } from "../../../src/commands/home.js";
import type { HttpAnswer } from "../../helpers/http.js";
import { useStartedDevChain } from "../../helpers/startedDevChain.js";

/**
 * x/params, x/upgrade and the hub's mint and guardian modules over HTTP against
 * `chain-rest start`, with the development genesis plus two more guardian supers
 * (so that the supers list has several pages).
 */
describe("e2e: params, upgrade, mint and guardian gateway routes", function () {
  this.timeout(60_000);
  let accounts: string[];
  let genesis: { genesis_time: string; app_state: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  const { get } = useStartedDevChain({
    prepare: (home) => {
      accounts = readDevAccounts(home)!.accounts.map((a) => a.address);
      const genesisFile = path.join(home, "config", "genesis.json");
      genesis = JSON.parse(fs.readFileSync(genesisFile, "utf8"));
      genesis.app_state.guardian.supers.push(
        { description: "second", account_type: "ORDINARY", address: accounts[1], added_by: accounts[0] },
        { description: "third", account_type: "ORDINARY", address: accounts[2], added_by: accounts[0] },
      );
      fs.writeFileSync(genesisFile, JSON.stringify(genesis, null, 2));
    },
  });

  const expectError = (r: HttpAnswer, status: number, message: string) => {
    expect(r.status, r.text).to.equal(status);
    expect(r.body).to.deep.equal({ code: status === 404 ? 5 : 3, message, details: [] });
  };

  describe("x/params", () => {
    const param = async (subspace: string, key: string) => {
      const r = await get(`/core/params/v1beta1/params?subspace=${subspace}&key=${key}`);
      expect(r.status, r.text).to.equal(200);
      expect(r.body.param.subspace).to.equal(subspace);
      expect(r.body.param.key).to.equal(key);
      return r.body.param.value as string;
    };

    it("gives each parameter as the amino JSON text x/params stores: 64-bit integers and decimals quoted", async () => {
      const expected: Array<[string, string, string]> = [
        ["auth", "MaxMemoCharacters", '"256"'],
        ["auth", "TxSigLimit", '"7"'],
        ["auth", "TxSizeCostPerByte", '"10"'],
        ["auth", "SigVerifyCostED25519", '"590"'],
        ["auth", "SigVerifyCostSecp256k1", '"1000"'],
        ["bank", "SendEnabled", "[]"],
        ["bank", "DefaultSendEnabled", "true"],
        ["mint", "Inflation", '"0.040000000000000000"'],
        ["mint", "MintDenom", '"uhub"'],
        ["ibc", "AllowedClients", '["06-solomachine","07-tendermint"]'],
        ["transfer", "SendEnabled", "true"],
        ["transfer", "ReceiveEnabled", "true"],
      ];
      for (const [subspace, key, value] of expected) expect(await param(subspace, key), `${subspace}/${key}`).to.equal(value);
    });

    it("answers the whole response shape", async () => {
      expect((await get("/core/params/v1beta1/params?subspace=mint&key=MintDenom")).body).to.deep.equal({
        param: { subspace: "mint", key: "MintDenom", value: '"uhub"' },
      });
    });

    it("400 naming the known subspaces for an unknown subspace", async () => {
      const r = await get("/core/params/v1beta1/params?subspace=nothing&key=Foo");
      expect(r.status).to.equal(400);
      expect(r.body.code).to.equal(3);
      expect(r.body.message).to.match(/^rpc error: code = InvalidArgument desc = unknown subspace "nothing": the known subspaces are auth, bank, .*mint, ibc, transfer/);
    });

    it("400 naming the subspace's keys for an unknown key", async () => {
      expectError(
        await get("/core/params/v1beta1/params?subspace=transfer&key=Foo"),
        400,
        'rpc error: code = InvalidArgument desc = unknown key "Foo" in subspace transfer: its keys are SendEnabled, ReceiveEnabled: invalid request',
      );
    });

    it("400 when subspace or key is missing", async () => {
      for (const query of ["", "?subspace=auth", "?key=TxSigLimit"]) {
        expectError(
          await get(`/core/params/v1beta1/params${query}`),
          400,
          "rpc error: code = InvalidArgument desc = subspace and key are both required, e.g. ?subspace=auth&key=MaxMemoCharacters: invalid request",
        );
      }
    });
  });

  describe("x/upgrade (no plan was ever scheduled on the development chain)", () => {
    it("answers the current plan as null", async () => {
      const r = await get("/core/upgrade/v1beta1/current_plan");
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ plan: null });
    });

    it("answers height 0 for a plan that was not applied", async () => {
      const r = await get("/core/upgrade/v1beta1/applied_plan/v2-upgrade");
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ height: "0" });
    });

    it("404 for the upgraded consensus state of a height without one", async () => {
      expectError(
        await get("/core/upgrade/v1beta1/upgraded_consensus_state/5"),
        404,
        "rpc error: code = NotFound desc = upgraded consensus state not found in store for height: 5: key not found",
      );
    });

    it("400 naming the parameter for a last_height that is not an integer", async () => {
      const r = await get("/core/upgrade/v1beta1/upgraded_consensus_state/abc");
      expect(r.status).to.equal(400);
      expect(r.body.code).to.equal(3);
      expect(r.body.message).to.include("last_height");
    });
  });

  describe("hubmod mint", () => {
    it("serves the mint params of the genesis; res is never filled", async () => {
      const r = await get("/hubmod/mint/params");
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ params: { mint_denom: "uhub", inflation: "0.040000000000000000" }, res: null });
    });
  });

  describe("hubmod guardian", () => {
    const supersInStoreOrder = () => {
      const all = [
        { description: "genesis", account_type: "GENESIS", address: accounts[0], added_by: accounts[0] },
        { description: "second", account_type: "ORDINARY", address: accounts[1], added_by: accounts[0] },
        { description: "third", account_type: "ORDINARY", address: accounts[2], added_by: accounts[0] },
      ];
      // the store key is 0x00 | address bytes
      const bytes = (address: string) => Buffer.from(bech32.fromWords(bech32.decode(address).words));
      return all.sort((a, b) => Buffer.compare(bytes(a.address!), bytes(b.address!)));
    };

    it("the development genesis makes account 0 the genesis super", () => {
      expect(genesis.app_state.guardian.supers[0]).to.deep.equal({ description: "genesis", account_type: "GENESIS", address: accounts[0], added_by: accounts[0] });
    });

    it("lists all supers in store order with the pagination of a complete page", async () => {
      const r = await get("/hubmod/guardian/supers");
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ supers: supersInStoreOrder(), pagination: { next_key: null, total: "3" } });
    });

    it("walks the supers one per page with next_key", async () => {
      const seen: unknown[] = [];
      let key: string | null = null;
      let pages = 0;
      do {
        const r: HttpAnswer = await get(`/hubmod/guardian/supers?pagination.limit=1${key ? `&pagination.key=${encodeURIComponent(key)}` : ""}`);
        expect(r.status).to.equal(200);
        expect(r.body.supers).to.have.length(1);
        expect(r.body.pagination.total).to.equal("0");
        seen.push(r.body.supers[0]);
        key = r.body.pagination.next_key;
        pages++;
      } while (key);
      expect(pages).to.equal(3);
      expect(seen).to.deep.equal(supersInStoreOrder());
    });

    it("pages with offset and count_total", async () => {
      const r = await get("/hubmod/guardian/supers?pagination.offset=1&pagination.limit=1&pagination.count_total=true");
      expect(r.body.supers).to.deep.equal([supersInStoreOrder()[1]]);
      expect(r.body.pagination.total).to.equal("3");
      expect(r.body.pagination.next_key).to.be.a("string");
      const last = await get("/hubmod/guardian/supers?pagination.offset=2&pagination.limit=5");
      expect(last.body.supers).to.deep.equal([supersInStoreOrder()[2]]);
      expect(last.body.pagination.next_key).to.equal(null);
    });
  });
});
