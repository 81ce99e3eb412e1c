"""sporeling.gnn: Graph neural networks: segment/scatter primitives, message passing, GCN, GAT, GraphSAGE, GIN."""
