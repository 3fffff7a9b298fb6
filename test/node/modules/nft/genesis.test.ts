import { expect } from "chai";
import { devAppState, validateModuleGenesis, type GenesisJson } from "../../../helpers/moduleGenesis.js";
import { nftModule } from "../../../../src/node/modules/nft/module.js";

const appState = () => devAppState({ accounts: 10 });
const validate = validateModuleGenesis;
type Json = GenesisJson;

describe("nft genesis", () => {
  const expectError = (edit: (collections: Json) => void, message: string) => {
    const state = appState().nft;
    edit(state.collections);
    expect(() => validate(nftModule, state)).to.throw(message);
  };

  it("rejects bad or repeated ids, names and owners", () => {
    expectError((c) => (c[1].denom.id = "Dev"), "collections[1].denom.id: the denom(Dev) only accepts alphanumeric characters");
    expectError((c) => (c[1].denom.id = "devbadges"), "collections[1].denom.id: denomID devbadges has already exists");
    expectError((c) => (c[1].denom.name = "Dev Badges"), "collections[1].denom.name: denomName Dev Badges has already exists");
    expectError((c) => (c[1].denom.name = "  "), "collections[1].denom.name: denom name(  ) can not be space");
    expectError((c) => (c[1].nfts[1].id = "kitty1"), "collections[1].nfts[1].id: NFT kitty1 already exists in collection devkitties");
    expectError((c) => (c[1].nfts[0].id = "k1"), "collections[1].nfts[0].id: the length of nft id(k1) only accepts value [3, 64]");
    expectError((c) => (c[1].nfts[0].owner = ""), "collections[1].nfts[0].owner: missing owner");
    expectError((c) => (c[1].nfts[0].uri = "x".repeat(257)), "collections[1].nfts[0].uri: the length of nft uri");
  });
});
