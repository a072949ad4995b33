"""What a strong reasoner believes about the hidden cards, from one player's observation."""
