"""sporeling.rl: Reinforcement learning: DQN and PPO on gymnasium environments."""
