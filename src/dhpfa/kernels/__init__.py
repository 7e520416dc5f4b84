"""Attention kernels and the list of shipped variants."""
